import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { daemonProvider } from '../daemon/provider';
import { localProvider, type BrowserProvider } from '../session/provider';
import { RELAY_ENDPOINT } from '../session/relayProtocol';

let script: string | undefined;
let provider: BrowserProvider | undefined;
let relayRouting: BrowserProvider | undefined;

/** Where the daemon bundled with this extension is; set once at activation. */
export function configureSharing(extensionPath: string): void {
  script = join(extensionPath, 'dist', 'daemon.js');
  provider = undefined;
  relayRouting = undefined;
}

/** This window's name in `browser-agent-daemon status` and the Sessions view. */
function clientName(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return `VS Code${folder ? `: ${basename(folder)}` : ''}`;
}

export function sharedEnabled(): boolean {
  return vscode.workspace.getConfiguration('browserAgent').get<boolean>('connection.shared', false);
}

/**
 * With `browserAgent.connection.shared` on, Copilot's tools, the chat panel and the status-bar
 * commands of this window all get their browser through the per-user session daemon: one browser
 * shared with other windows and MCP clients, this window in its own tab(s).
 */
export function sharedProvider(): BrowserProvider | undefined {
  provider ??= daemonProvider({ client: clientName, script });
  if (sharedEnabled()) return provider;
  // Sharing off: this window launches and attaches itself, except to the Chrome extension relay,
  // which only the session daemon reaches.
  const daemon = provider;
  relayRouting ??= {
    name: 'local',
    launch: (o, s) => localProvider.launch(o, s),
    attach: (endpoint, s) => (endpoint === RELAY_ENDPOINT ? daemon : localProvider).attach(endpoint, s),
  };
  return relayRouting;
}

/** The daemon script bundled with this extension (for control calls such as pairing). */
export function daemonScript(): string | undefined {
  return script;
}
