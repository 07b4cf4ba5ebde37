import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createDecider, type ConfirmAnswer, type Confirmer, type Decider, type Notifier } from './decider';
import { confirmationText } from './messages';
import { chainSecretSources, envFileSecretSource, mapSecretSource, SecretVault } from './secrets';
import { normalizePolicy, type PolicySettings } from './settings';

/** The part of the SDK's low-level `Server` (McpServer.server) the confirmer needs. */
export interface ElicitingServer {
  getClientCapabilities(): { elicitation?: object } | undefined;
  elicitInput(params: ElicitRequestFormParams, options?: { timeout?: number }): Promise<ElicitResult>;
}

export interface McpSafetyOptions {
  /** `--allow-confirm-actions`: without elicitation, `confirm` actions run (and are logged) instead of being blocked. */
  allowConfirmActions: boolean;
  /** How long a person has to answer an elicitation. */
  confirmTimeoutMs?: number;
  /** Where notify-level actions and run-without-asking confirms are reported (stderr by default: stdout is the protocol). */
  log?(message: string): void;
}

const CHOICES: Record<string, ConfirmAnswer> = { allow: 'allow', 'allow-site': 'allow-site' };

/**
 * Asks through MCP elicitation when the client supports it; otherwise `confirm` means `block`
 * unless the server was started with --allow-confirm-actions.
 */
export function createMcpConfirmer(serverRef: ElicitingServer | (() => ElicitingServer | undefined), opts: McpSafetyOptions): Confirmer {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  return async (req) => {
    const { title, lines } = confirmationText(req);
    const server = typeof serverRef === 'function' ? serverRef() : serverRef;
    if (server?.getClientCapabilities()?.elicitation) {
      try {
        const res = await server.elicitInput(
          {
            mode: 'form',
            message: `${title}\n\n${lines.join('\n')}`,
            requestedSchema: {
              type: 'object',
              properties: {
                decision: { type: 'string', title: 'Allow this action?', enum: ['allow', 'allow-site'], enumNames: ['Allow', 'Allow for this site in this session'] } as never,
              },
              required: ['decision'],
            },
          },
          { timeout: opts.confirmTimeoutMs ?? 5 * 60_000 },
        );
        if (res.action !== 'accept') return 'refuse';
        return CHOICES[String(res.content?.decision ?? 'allow')] ?? 'refuse';
      } catch (e) {
        log(`Browser Agent: confirmation failed (${e instanceof Error ? e.message : e}); treating it as refused.`);
        return 'refuse';
      }
    }
    if (opts.allowConfirmActions) {
      log(`Browser Agent: ran without asking (--allow-confirm-actions): ${lines.join(' | ')}`);
      return 'allow';
    }
    log(`Browser Agent: not run, it needs a confirmation this client cannot show: ${lines.join(' | ')}`);
    return 'unavailable';
  };
}

export interface McpSafety {
  decider: Decider;
  vault: SecretVault;
  settings: PolicySettings;
}

/**
 * Everything the MCP server needs, from its argv and env. The server may be passed lazily, since
 * it is usually created with the hooks:
 *   let server: Server | undefined;
 *   const safety = createMcpSafety(() => server, process.argv.slice(2), process.env);
 *   const pipeline = createToolPipeline({ decider: safety.decider, vault: safety.vault });
 *   server = createMcpServer(allTools.map(pipeline.tool), ctx, pipeline.hooks());
 */
export function createMcpSafety(server: ElicitingServer | (() => ElicitingServer | undefined), argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): McpSafety {
  const args = parseSafetyArgs(argv, env);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const notifier: Notifier = (message) => log(`Browser Agent: ${message}`);
  const decider = createDecider(() => args.settings, createMcpConfirmer(server, { allowConfirmActions: args.allowConfirmActions, log }), notifier, { vault: args.vault });
  return { decider, vault: args.vault, settings: args.settings };
}

/** Env var carrying the full policy (the VS Code MCP provider passes the user's settings this way). */
export const SAFETY_ENV = 'BROWSER_AGENT_SAFETY';
/** Env var carrying secret values from VS Code SecretStorage as a JSON object. */
export const SECRETS_ENV = 'BROWSER_AGENT_SECRETS';

function flagValue(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(name.length + 1) : argv[i + 1];
}

const list = (v: string | undefined) => (v ? v.split(/[,;]/).map((s) => s.trim()).filter(Boolean) : undefined);

/**
 * Safety flags: --allowed-origins a,b --blocked-origins c --allow-schemes (or --allowed-schemes) file --allow-confirm-actions
 * --secrets-file path; plus BROWSER_AGENT_SAFETY (JSON PolicySettings) and BROWSER_AGENT_SECRETS (JSON map).
 */
export function parseSafetyArgs(argv: string[], env: NodeJS.ProcessEnv = {}): { settings: PolicySettings; allowConfirmActions: boolean; vault: SecretVault } {
  let base: Partial<PolicySettings> = {};
  if (env[SAFETY_ENV]) {
    try {
      base = JSON.parse(env[SAFETY_ENV]!);
    } catch {
      process.stderr.write(`Browser Agent: ignoring ${SAFETY_ENV}: not valid JSON.\n`);
    }
  }
  const settings = normalizePolicy({
    ...base,
    ...(list(flagValue(argv, '--allowed-origins')) && { allowedOrigins: list(flagValue(argv, '--allowed-origins')) }),
    ...(list(flagValue(argv, '--blocked-origins')) && { blockedOrigins: list(flagValue(argv, '--blocked-origins')) }),
    ...(list(flagValue(argv, '--allowed-schemes') ?? flagValue(argv, '--allow-schemes')) && { allowedSchemes: list(flagValue(argv, '--allowed-schemes') ?? flagValue(argv, '--allow-schemes')) }),
    ...(list(flagValue(argv, '--secret-origins')) && { secretOrigins: list(flagValue(argv, '--secret-origins')) }),
  });
  let stored: Record<string, string> = {};
  try {
    stored = env[SECRETS_ENV] ? JSON.parse(env[SECRETS_ENV]!) : {};
  } catch {
    process.stderr.write(`Browser Agent: ignoring ${SECRETS_ENV}: not valid JSON.\n`);
  }
  const file = flagValue(argv, '--secrets-file');
  const vault = new SecretVault(file ? chainSecretSources(mapSecretSource(stored), envFileSecretSource(file)) : mapSecretSource(stored));
  return { settings, allowConfirmActions: argv.includes('--allow-confirm-actions'), vault };
}
