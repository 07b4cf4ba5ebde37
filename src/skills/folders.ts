import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SkillFolder } from './library';

/** The user's skills, shared by the VS Code extension and the MCP server. */
export function globalSkillsDir(): string {
  return join(homedir(), '.browser-agent', 'skills');
}

/** Skills that live with a project. */
export function workspaceSkillsDir(workspaceFolder: string): string {
  return join(workspaceFolder, '.browser-agent', 'skills');
}

/** The examples in the package: `resources/skills` next to `dist/`. */
export function shippedSkillsDir(packageRoot: string): string {
  return join(packageRoot, 'resources', 'skills');
}

/** Workspace first: on equal scores the person's own skills are listed before the examples. */
export function defaultSkillFolders(o: { workspaces: string[]; packageRoot?: string; shipped?: boolean; extra?: string[] }): SkillFolder[] {
  return [
    ...o.workspaces.map((w) => ({ path: workspaceSkillsDir(w), source: 'workspace' as const })),
    { path: globalSkillsDir(), source: 'global' as const },
    ...(o.extra ?? []).map((p) => ({ path: p, source: 'extra' as const })),
    ...(o.packageRoot && o.shipped !== false ? [{ path: shippedSkillsDir(o.packageRoot), source: 'shipped' as const }] : []),
  ];
}

/**
 * The MCP server's folders: every `--skills-dir <dir>` (repeatable) instead of the defaults
 * (`<cwd>/.browser-agent/skills`, `~/.browser-agent/skills`, the shipped examples);
 * `--skills-dir off` turns skills off.
 */
export function mcpSkillFolders(dirs: string[] | undefined, cwd: string, packageRoot: string): SkillFolder[] | undefined {
  if (dirs?.includes('off')) return undefined;
  if (dirs?.length) return dirs.map((p) => ({ path: p, source: 'extra' as const }));
  return defaultSkillFolders({ workspaces: [cwd], packageRoot });
}
