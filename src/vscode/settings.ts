import * as vscode from 'vscode';
import type { SessionSettings } from '../session/manager';
import { resolveHeadless } from '../session/headless';
import { sharedProvider } from './sharing';

export const SECTION = 'browserAgent';

export function readSessionSettings(): SessionSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const endpoint = c.get<string>('connection.endpoint', '').trim();
  return {
    mode: c.get<'launch' | 'attach'>('connection.mode', 'launch'),
    launch: {
      executablePath: c.get<string>('browser.executablePath', '').trim() || undefined,
      headless: resolveHeadless(c.get<string>('browser.headless', 'auto')),
      userDataDir: c.get<string>('browser.userDataDir', '').trim() || undefined,
      args: c.get<string[]>('browser.args', []),
    },
    attach: endpoint ? { endpoint, headers: c.get<Record<string, string>>('connection.headers', {}) } : undefined,
    attachTab: c.get<'existing' | 'new'>('connection.attachTab', 'existing'),
    remoteBrowser: c.get<'per-session' | 'shared'>('connection.remoteBrowser', 'per-session'),
    cdpTimeoutMs: c.get<number>('cdp.timeoutMs', 30_000),
    provider: sharedProvider(),
  };
}
