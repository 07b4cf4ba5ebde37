import type { ConfigurationTarget, WorkspaceConfiguration } from 'vscode';

/**
 * Settings renamed so the Settings editor titles them right. VS Code makes a setting's title from its key (in
 * 1.139: camelCase split into words, a segment after a dot capitalised, only css/html/json/js/ts/… kept as
 * acronyms), so `vscodeLm.model` read "Vscode Lm: Model" and `mcp.publish` "Mcp: Publish". An acronym survives
 * only as capitals at the start of the key's last segment: `VSCodeLMModel` reads "VS Code LM Model" in the
 * settings tree and in search results alike (a capital after a dot in the middle keeps the dot in the title).
 */
export const MOVED_SETTINGS = {
  vscodeLmModel: { from: 'browserAgent.agent.vscodeLm.model', to: 'browserAgent.agent.VSCodeLMModel' },
  mcpPublish: { from: 'browserAgent.mcp.publish', to: 'browserAgent.publishMCPServer' },
} as const;

export type SettingMove = (typeof MOVED_SETTINGS)[keyof typeof MOVED_SETTINGS];

type Inspectable = Pick<WorkspaceConfiguration, 'get' | 'inspect'>;

/** Whether a user, workspace or folder settings file sets `key` (a default does not count). */
function isSet(c: Inspectable, key: string): boolean {
  const i = c.inspect(key);
  return !!i && (i.globalValue !== undefined || i.workspaceValue !== undefined || i.workspaceFolderValue !== undefined);
}

/** The renamed setting's value; the old key's until the move has happened (or if it could not be written). */
export function readMoved<T>(c: Inspectable, move: SettingMove, fallback: T): T {
  if (isSet(c, move.to) || !isSet(c, move.from)) return c.get<T>(move.to, fallback);
  return c.get<T>(move.from, fallback);
}

/** One settings file: user, workspace or one folder's. */
export interface SettingsScope {
  name: string;
  target: ConfigurationTarget;
  /** The value this file sets for `key`, if any. */
  value(key: string): unknown;
  write(key: string, value: unknown): Thenable<void>;
}

/**
 * Moves each old key's value to its new key in every settings file that has it, then removes the old key. The
 * new key is written first, so a failure loses nothing: the old value stays and the readers still find it. A
 * value the user already gave the new key wins over the old one. Returns one line per move or failure, for the log.
 */
export async function moveSettings(scopes: readonly SettingsScope[], moves: readonly SettingMove[] = Object.values(MOVED_SETTINGS)): Promise<string[]> {
  const lines: string[] = [];
  for (const scope of scopes) {
    for (const { from, to } of moves) {
      const old = scope.value(from);
      if (old === undefined) continue;
      try {
        const kept = scope.value(to) !== undefined;
        if (!kept) await scope.write(to, old);
        await scope.write(from, undefined);
        lines.push(`${scope.name} settings: ${from} ${kept ? `removed (${to} was already set)` : `moved to ${to}`}`);
      } catch (e) {
        lines.push(`${scope.name} settings: ${from} could not be moved to ${to} (${(e as Error).message}); it is still read from there`);
      }
    }
  }
  return lines;
}
