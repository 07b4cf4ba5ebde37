import type { SessionStatus } from '../session/manager';

type Connected = Extract<SessionStatus, { state: 'connected' }>;

/**
 * Whose browser it is, in plain words ("headless" alone means nothing to many people): one Browser Agent
 * started (with or without a window), or the person's own, which Close only lets go of. `inMenu`: the
 * session menu's title already says "Browser Agent".
 */
export function whoseBrowser(s: Connected, inMenu = false): string {
  if (s.relay) return 'the tabs you share in your own Chrome, through the Browser Agent extension; Close only detaches';
  if (s.kind === 'attached') return `your own browser${s.shared ? ', shared by the session daemon' : ''}; Close only detaches, it keeps running`;
  const how = s.headless ? 'no window (headless)' : 'in its own window';
  if (s.shared) return `started by the session daemon, ${how}; other windows and MCP clients have their own tabs`;
  return inMenu ? `${how}; Close ends it` : `started by Browser Agent, ${how}`;
}

/** How long a failed launch or attach is shown as such; after it the bar says "none" again (the tooltip keeps why). */
export const FAILURE_SHOWN_MS = 60_000;

/**
 * The status bar's text and tooltip for a session state (pure, so it is unit-tested). `stale`: a failure shown for
 * FAILURE_SHOWN_MS already, no longer news: the bar says there is no browser, the tooltip still says what failed.
 */
export function statusText(s: SessionStatus, stale = false): { text: string; tooltip: string } {
  switch (s.state) {
    case 'none':
      return { text: '$(globe) Browser: none', tooltip: 'Browser Agent: no browser. Click to launch or attach.' };
    case 'starting':
      return { text: `$(sync~spin) Browser: ${s.kind === 'launched' ? 'launching' : 'attaching'}…`, tooltip: 'Browser Agent is starting a session.' };
    case 'connected': {
      const title = s.tabTitle || s.tabUrl || 'about:blank';
      const short = title.length > 30 ? `${title.slice(0, 29)}…` : title;
      const text = s.relay ? `$(extensions) Your Chrome: ${short}` : s.kind === 'attached' ? `$(plug) Your browser: ${short}` : `$(globe) Browser${s.shared ? ' (shared)' : ''}: ${short}`;
      const first = whoseBrowser(s);
      const tabs = `${s.tabs} tab(s)${s.shared ? ' of ours' : ''}`;
      return { text, tooltip: `${first[0].toUpperCase()}${first.slice(1)}\n${s.tabTitle ? `${s.tabTitle} · ` : ''}${s.tabUrl} · ${tabs}\nClick for actions.` };
    }
    case 'disconnected':
      // A failed launch or attach never connected: "disconnected" would say something was lost.
      if (s.failed && stale) return { text: '$(globe) Browser: none', tooltip: `Browser Agent: no browser. The last try could not ${s.failed === 'launched' ? 'launch' : 'attach to'} the browser: ${s.reason}\nClick to launch or attach.` };
      if (s.failed) return { text: `$(warning) Browser: could not ${s.failed === 'launched' ? 'launch' : 'attach'}`, tooltip: `Browser Agent could not ${s.failed === 'launched' ? 'launch' : 'attach to'} the browser: ${s.reason}\nClick to launch or attach.` };
      return { text: '$(warning) Browser: disconnected', tooltip: `Browser Agent: ${s.reason}. Click to launch or attach.` };
  }
}
