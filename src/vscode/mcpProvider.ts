import * as vscode from 'vscode';
import { SAFETY_ENV, SECRETS_ENV } from '../safety/mcp';
import type { SessionManager } from '../session/manager';
import { readPolicySettings, readSecretSettings } from './safetySettings';
import { readSessionSettings, SECTION } from './settings';
import { MOVED_SETTINGS, readMoved } from './settingMoves';
import { sharedEnabled } from './sharing';

export const MCP_PROVIDER_ID = 'browserAgent.mcp';

/** Command line for the bundled MCP server that mirrors this window's session and safety settings. */
export function mcpServerArgs(sessions: SessionManager, script: string): string[] {
  const s = readSessionSettings();
  const p = readPolicySettings();
  const args = [script];
  const shared = sharedEnabled();
  // Shared: the server joins this window's browser through the session daemon (same settings, same
  // browser). Otherwise it works in-process and attaches to the live browser when there is one.
  if (!shared) args.push('--no-daemon');
  const endpoint = (shared ? undefined : sessions.current?.endpoint) ?? (s.mode === 'attach' ? s.attach?.endpoint : undefined);
  if (endpoint) {
    args.push('--cdp-url', endpoint);
    // Only the daemon can share one engine browser between sessions; without it each server has its own.
    if (shared && s.remoteBrowser === 'shared') args.push('--remote-browser', 'shared');
  } else {
    if (s.launch.headless) args.push('--headless');
    if (s.launch.executablePath) args.push('--executable-path', s.launch.executablePath);
    if (shared && s.launch.userDataDir) args.push('--user-data-dir', s.launch.userDataDir);
  }
  if (p.allowedOrigins.length) args.push('--allowed-origins', p.allowedOrigins.join(','));
  if (p.blockedOrigins.length) args.push('--blocked-origins', p.blockedOrigins.join(','));
  const envFile = readSecretSettings().envFile;
  if (envFile) args.push('--secrets-file', envFile);
  return args;
}

/** The attach headers (an engine's API key) for the MCP server: in its environment, never on its command line. */
function attachHeadersEnv(): Record<string, string> {
  const headers = readSessionSettings().attach?.headers;
  return headers && Object.keys(headers).length ? { BROWSER_AGENT_CDP_HEADERS: JSON.stringify(headers) } : {};
}

/**
 * Publishes the MCP server only when browserAgent.publishMCPServer is on: Copilot already has the same
 * tools as language-model tools, and two "Browser Agent" groups in its tool picker confuse people.
 * Publishes the MCP server to other agents inside VS Code (guarded: the API exists from 1.101).
 * VS Code is an MCP client with elicitation, so `confirm` actions are asked there.
 */
export function registerMcpServerProvider(context: vscode.ExtensionContext, sessions: SessionManager, secrets: vscode.SecretStorage): vscode.Disposable[] {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof vscode.McpStdioServerDefinition !== 'function') return [];
  const changed = new vscode.EventEmitter<void>();
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath;
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      if (!readMoved(vscode.workspace.getConfiguration(), MOVED_SETTINGS.mcpPublish, false)) return [];
      const def = new vscode.McpStdioServerDefinition('Browser Agent (MCP server)', process.execPath, mcpServerArgs(sessions, script), { ELECTRON_RUN_AS_NODE: '1', [SAFETY_ENV]: JSON.stringify(readPolicySettings()), ...attachHeadersEnv() }, String(context.extension.packageJSON.version ?? '0'));
      return [def];
    },
    // Secret values only travel when the server actually starts (never in the eager listing).
    resolveMcpServerDefinition: async (def) => {
      const values: Record<string, string> = {};
      for (const name of readSecretSettings().names) {
        const v = await secrets.get(`browserAgent.secret.${name}`);
        if (v !== undefined) values[name] = v;
      }
      def.env = { ...def.env, [SECRETS_ENV]: JSON.stringify(values) };
      def.args = mcpServerArgs(sessions, script);
      return def;
    },
  };
  return [
    changed,
    lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) changed.fire();
    }),
  ];
}
