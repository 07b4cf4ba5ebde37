// Which page to work in when attaching to a browser the user already has open: the one they are
// looking at, even when another CDP client (DevTools, a test harness, another tool) is attached to
// it. Claims between several Browser Agent servers on one browser are a separate concern: the
// chooser takes an `isClaimed` predicate and skips claimed pages.
import type { CdpConnection } from './cdp';
import { worldInUse } from './worlds';
import { pageCall, pageFns } from '../page/fn';
import guardsFns from '../page/session/guards.ts?pagefn';
import { ignore } from '../base/ignore';

const guardsPage = pageFns<typeof import('../page/session/guards')>(guardsFns);

/** `focused`: the page the user has open (default); `new`: always a tab of our own. */
export type AttachTabMode = 'focused' | 'new';

export interface PageCandidate {
  targetId: string;
  url: string;
  /** The page is visible (its tab is the selected one of its window). Unknown when probing failed. */
  visible?: boolean;
  /** The page has the input focus. */
  focused?: boolean;
  /** Another Browser Agent already works in this page (its isolated world is there). */
  agentWorld?: boolean;
}

/** Browser pages nobody works in: DevTools front-ends and internal pages other than a new-tab page. */
function usable(url: string): boolean {
  if (url.startsWith('devtools://')) return false;
  if (/^chrome(-untrusted)?:\/\//.test(url) && !/^chrome:\/\/(newtab|new-tab-page)\b/.test(url)) return false;
  return true;
}

/**
 * The page to work in, or undefined for a tab of our own. Pure: focused beats visible beats the
 * first listed; claimed and unusable pages (DevTools, internal pages) never win.
 */
export function chooseAttachTab(pages: PageCandidate[], opts: { mode?: AttachTabMode; isClaimed?: (p: PageCandidate) => boolean } = {}): string | undefined {
  if (opts.mode === 'new') return undefined;
  const isClaimed = opts.isClaimed ?? (() => false);
  const free = pages.filter((p) => usable(p.url) && !isClaimed(p));
  const rank = (p: PageCandidate) => (p.focused ? 2 : 0) + (p.visible ? 1 : 0);
  let best: PageCandidate | undefined;
  for (const p of free) if (!best || rank(p) > rank(best)) best = p;
  return best?.targetId;
}

/** The default claim check until servers claim tabs explicitly: another Browser Agent's world is in the page. */
export const claimedByAgentWorld = (p: PageCandidate) => !!p.agentWorld;

const PROBE_MS = 1500;
const MAX_PROBED = 20;

/**
 * What a look at the pages needs of a browser connection: a connection of its own (the in-process server's,
 * see `connectionLink`) or the session daemon's one shared connection (src/daemon/hub.ts), which keeps the
 * look's page sessions and their events away from its clients.
 */
export interface ProbeLink {
  call(method: string, params: object, sessionId: string | undefined, timeoutMs: number): Promise<any>;
  /** Hands `fn` the events of a page session the look attached, until the returned function is called. */
  tap(sessionId: string, fn: (method: string, params: any) => void): () => void;
  /** Pages that may be looked into (default: all); the others are listed unprobed. */
  mayProbe?(targetId: string): boolean;
}

/** A look through a connection of the caller's own. */
export function connectionLink(conn: CdpConnection): ProbeLink {
  return {
    call: (method, params, sessionId, timeoutMs) => conn.send(method as 'Target.getTargets', params as object, sessionId, timeoutMs),
    tap: (sessionId, fn) => {
      const listener = (method: string, params: unknown, sid?: string) => sid === sessionId && fn(method, params);
      conn.on('event', listener);
      return () => void conn.off('event', listener);
    },
  };
}

/**
 * Lists the pages of a browser with what a short look inside each tells: visible, focused, and whether
 * another Browser Agent works there. A page that does not answer in time (hung, or held by a dialog)
 * keeps its place with unknown state.
 */
export async function probePages(link: ProbeLink): Promise<PageCandidate[]> {
  const { targetInfos } = (await link.call('Target.getTargets', {}, undefined, PROBE_MS)) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const pages = targetInfos.filter((t) => t.type === 'page' && usable(t.url));
  const out: PageCandidate[] = pages.map((t) => ({ targetId: t.targetId, url: t.url }));
  const looked = out.filter((p) => link.mayProbe?.(p.targetId) ?? true).slice(0, MAX_PROBED);
  await Promise.all(looked.map((p) => probeOne(link, p).catch((e) => ignore(e, 'a page that does not answer is listed unprobed'))));
  return out;
}

async function probeOne(link: ProbeLink, p: PageCandidate): Promise<void> {
  const { sessionId } = await link.call('Target.attachToTarget', { targetId: p.targetId, flatten: true }, undefined, PROBE_MS);
  const off = link.tap(sessionId, (method, e) => {
    // Any world a live agent may still use marks the page taken: a world that fakes a gone agent's name adds none.
    if (method === 'Runtime.executionContextCreated' && worldInUse(String(e?.context?.name ?? ''))) p.agentWorld = true;
  });
  try {
    // Runtime.enable reports every existing context, isolated worlds of other clients included.
    await link.call('Runtime.enable', {}, sessionId, PROBE_MS);
    const r = await link.call('Runtime.evaluate', { expression: pageCall(guardsPage.visibleAndFocused), returnByValue: true }, sessionId, PROBE_MS);
    const [vis, focus] = (r.result.value as [string, boolean] | undefined) ?? [];
    p.visible = vis === 'visible';
    p.focused = focus === true;
  } finally {
    off();
    await link.call('Target.detachFromTarget', { sessionId }, undefined, PROBE_MS).catch((e) => ignore(e, 'the session may be gone already'));
  }
}
