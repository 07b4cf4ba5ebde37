import type { SessionStatus } from '../session/manager';

/** The status bar's text and tooltip for a session state (pure, so it is unit-tested). */
export function statusText(s: SessionStatus): { text: string; tooltip: string } {
  switch (s.state) {
    case 'none':
      return { text: '$(globe) Browser: none', tooltip: 'Browser Agent: no browser. Click to launch or attach.' };
    case 'starting':
      return { text: `$(sync~spin) Browser: ${s.kind === 'launched' ? 'launching' : 'attaching'}…`, tooltip: 'Browser Agent is starting a session.' };
    case 'connected': {
      const title = s.tabTitle || s.tabUrl || 'about:blank';
      const short = title.length > 30 ? `${title.slice(0, 29)}…` : title;
      if (s.relay) {
        return {
          text: `$(extensions) your Chrome: ${short}`,
          tooltip: `Browser Agent: the tabs you share in your own Chrome, through the Browser Agent extension (session daemon), ${s.tabs} tab(s) of ours\nActive: ${s.tabTitle} — ${s.tabUrl}\nClick for session commands.`,
        };
      }
      return {
        text: `$(globe) ${s.shared ? 'shared' : s.kind}${s.headless ? ' (headless)' : ''}: ${short}`,
        tooltip: `Browser Agent: ${s.shared ? `a session in the shared ${s.kind} browser (session daemon; other clients have their own tabs)` : `${s.kind} browser`}${s.headless ? ', headless' : ''}, ${s.tabs} tab(s)${s.shared ? ' of ours' : ''}\nActive: ${s.tabTitle} — ${s.tabUrl}\nClick for session commands.`,
      };
    }
    case 'disconnected':
      return { text: '$(warning) Browser: disconnected', tooltip: `Browser Agent: ${s.reason}. Click to launch or attach.` };
  }
}
