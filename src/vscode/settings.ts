import * as vscode from 'vscode';
import type { SessionSettings } from '../session/manager';

export const SECTION = 'browserAgent';

/** Headed needs a display; on a Linux box without one (SSH, containers, CI) "auto" means headless. */
export function resolveHeadless(setting: string | undefined, env = process.env, platform = process.platform): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

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
    cdpTimeoutMs: c.get<number>('cdp.timeoutMs', 30_000),
  };
}
