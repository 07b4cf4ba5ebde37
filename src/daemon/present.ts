import type { SessionInfo } from './protocol';

export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

/** How the Sessions view shows a daemon session (pure, so it is unit-tested). */
export function describeSession(s: SessionInfo, now = Date.now(), ownId?: string): { label: string; description: string; tooltip: string } {
  const first = s.tabs[0];
  const tab = first ? first.title || first.url : 'no tab';
  const more = s.tabs.length > 1 ? ` +${s.tabs.length - 1}` : '';
  const own = s.id === ownId ? ' (this window)' : '';
  return {
    label: `${s.client}${own}`,
    description: `${tab}${more} · ${ago(s.lastActivity, now)}`,
    tooltip: [
      `${s.client}${own} — pid ${s.pid}${s.connected ? '' : ' (reconnecting)'}`,
      ...s.tabs.map((t) => `• ${t.title || '(untitled)'} — ${t.url}`),
      `Last activity ${ago(s.lastActivity, now)}; started ${ago(s.startedAt, now)}`,
      `Browser: ${s.browser}`,
    ].join('\n'),
  };
}
