import type { SessionStatus } from '../session/manager';
import { whoseBrowser } from './statusText';

export interface MenuItem {
  label: string;
  description?: string;
  command: string;
}

/**
 * The session menu for a state: the first (default) entry is what a person most likely wants now —
 * Launch when there is no browser, the live view when one runs; Close only when there is one.
 */
export function sessionMenu(s: SessionStatus): { title: string; items: MenuItem[] } {
  const log: MenuItem = { label: '$(output) Show Log', command: 'browserAgent.showLog' };
  switch (s.state) {
    case 'connected':
      return {
        title: `${s.tabTitle || s.tabUrl || 'about:blank'} — ${whoseBrowser(s, true)}`,
        items: [
          { label: '$(eye) Open Live View', command: 'browserAgent.openLiveView' },
          { label: '$(close) Close Browser', description: s.kind === 'attached' ? 'detach; your browser keeps running' : undefined, command: 'browserAgent.closeBrowser' },
          // A headed browser only: there is no window to show in a headless one.
          ...(s.headless ? [] : [{ label: "$(window) Bring the Agent's Tab to Front", description: 'selects it in its window', command: 'browserAgent.bringToFront' }]),
          { label: '$(play) Launch a New Browser…', description: 'asks before replacing this one', command: 'browserAgent.launchBrowser' },
          { label: '$(plug) Attach to Another Browser…', description: 'asks before replacing this one', command: 'browserAgent.attachBrowser' },
          log,
        ],
      };
    case 'starting':
      return {
        title: s.kind === 'launched' ? 'launching…' : 'attaching…',
        items: [{ label: '$(close) Cancel and Close Browser', command: 'browserAgent.closeBrowser' }, log],
      };
    case 'disconnected':
    case 'none':
      return {
        title: s.state === 'none' ? 'no browser' : s.failed ? `could not ${s.failed === 'launched' ? 'launch' : 'attach'}: ${s.reason}` : `disconnected (${s.reason})`,
        items: [
          { label: '$(play) Launch Browser', command: 'browserAgent.launchBrowser' },
          { label: '$(plug) Attach to Browser…', command: 'browserAgent.attachBrowser' },
          log,
        ],
      };
  }
}
