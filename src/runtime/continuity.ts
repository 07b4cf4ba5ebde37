import type { BrowserSession } from '../session/browserSession';
import type { SessionManager, StartInfo } from '../session/manager';
import type { Tab } from '../session/tab';
import { carryRefs } from '../snapshot/carryRefs';
import { ignore } from '../base/ignore';

/**
 * When the browser is relaunched or reattached behind the model's back (it crashed, was closed,
 * the connection dropped), the next result must say so, and refs from before must give STALE_REF
 * rather than silently meaning an element of the new page. Every front door runs tools through
 * runTool, which installs this once per SessionManager and takes the notice after each call.
 */

interface Continuity {
  notice?: string;
  /** Tabs each session showed us, so their refs can be carried once the session is gone. */
  tabs: WeakMap<BrowserSession, { all: Set<Tab>; active?: Tab }>;
}

const installed = new WeakMap<SessionManager, Continuity>();

const NOTICES: Record<Exclude<StartInfo['reason'], 'first'>, { launched: string; attached: string }> = {
  disconnected: {
    launched: 'Note: the browser had exited or crashed since the last call and was relaunched. This is a new browser: earlier pages, tabs, logins and refs are gone (old refs give STALE_REF). Navigate again, then take a new snapshot.',
    attached: 'Note: the connection to the browser was lost and Browser Agent reattached. Tabs may have changed and earlier refs are no longer valid (STALE_REF); take a new snapshot.',
  },
  closed: {
    launched: 'Note: the browser was closed since the last call and a new one was launched. Earlier pages, tabs and refs are gone (old refs give STALE_REF).',
    attached: 'Note: Browser Agent was detached from the browser since the last call and attached again; earlier refs are no longer valid (STALE_REF). Take a new snapshot.',
  },
  restarted: {
    launched: 'Note: the browser was restarted since the last call. Earlier pages, tabs and refs are gone (old refs give STALE_REF).',
    attached: 'Note: Browser Agent reattached to the browser since the last call; earlier refs are no longer valid (STALE_REF). Take a new snapshot.',
  },
};

/** A remote-browser engine gives a fresh browser per connection: a lost one is like a crash, nothing is kept. */
const NEW_REMOTE_BROWSER =
  'Note: the connection to the remote browser was lost (the engine ended its session: a time limit, a kill or a restart) and a new remote browser was opened. Earlier pages, tabs, logins and refs are gone (old refs give STALE_REF). Navigate again, then take a new snapshot.';

function track(c: Continuity, session: BrowserSession) {
  if (c.tabs.has(session)) return;
  const rec: { all: Set<Tab>; active?: Tab } = { all: new Set() };
  c.tabs.set(session, rec);
  for (const t of session.tabs()) {
    try {
      const tab = session.getTab(t.id);
      rec.all.add(tab);
      if (t.active) rec.active = tab;
    } catch (e) {
      ignore(e, 'closed meanwhile');
    }
  }
  session.on('tabOpened', (tab: Tab) => rec.all.add(tab));
  session.on('activeTabChanged', (tab: Tab) => {
    rec.all.add(tab);
    rec.active = tab;
  });
}

function onStarted(c: Continuity, session: BrowserSession, info: StartInfo) {
  track(c, session);
  if (info.reason === 'first') return;
  c.notice = session.pool && info.reason === 'disconnected' ? NEW_REMOTE_BROWSER : NOTICES[info.reason][session.kind];
  const old = info.previous && c.tabs.get(info.previous);
  if (!old) return;
  for (const t of session.tabs()) {
    try {
      carryRefs(old.all, old.active, session.getTab(t.id), session.kind === 'attached' ? 'before Browser Agent reattached to the browser' : 'in the browser before it was restarted');
    } catch (e) {
      ignore(e, 'closed meanwhile');
    }
  }
}

/** Installs the relaunch notice and ref carry-over for this manager (once). */
export function watchContinuity(sessions: SessionManager): void {
  if (installed.has(sessions) || typeof sessions?.on !== 'function') return;
  const c: Continuity = { tabs: new WeakMap() };
  installed.set(sessions, c);
  if (sessions.current) track(c, sessions.current);
  sessions.on('started', (session: BrowserSession, info: StartInfo) => onStarted(c, session, info));
}

/** The relaunch/reattach notice for the next result, once. */
export function takeNotice(sessions: SessionManager): string | undefined {
  const c = installed.get(sessions);
  const n = c?.notice;
  if (c) c.notice = undefined;
  return n;
}
