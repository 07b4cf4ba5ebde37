// Which page of an attached browser a new client works in, for both modes (the session daemon and the
// in-process server): the page the user has open and focused (src/session/tabChoice.ts), even when DevTools
// or another tool is attached to it — but never a page another client or Browser Agent server works in
// (its claim file or its isolated world is there), nor a background tab.
import { CdpConnection } from './cdp';
import { chooseAttachTab, claimedByAgentWorld, connectionLink, probePages, type AttachTabMode, type PageCandidate, type ProbeLink } from './tabChoice';
import type { TabClaims } from './tabClaims';
import { ignore } from '../base/ignore';

export interface UserPageChoice {
  /** The browser's ws:// debugger URL and handshake headers, for a look on a connection of our own… */
  wsUrl?: string;
  headers?: Record<string, string>;
  /** …or a connection to look through that the caller already has (the session daemon's one). */
  link?: ProbeLink;
  mode?: AttachTabMode;
  /** Claim files shared with the other servers attached to this browser. */
  claims?: TabClaims;
  /** A tab another client of this process owns. */
  ownedHere?: (targetId: string) => boolean;
  /** Another Browser Agent works in the page (default: its isolated world is there). */
  otherAgent?: (p: PageCandidate) => boolean;
  /** Only these pages may be chosen (the ones the caller's connection knows). */
  among?: (targetId: string) => boolean;
  /** Takes the chosen page; false when someone got to it first (then, with attempts left, look again). */
  claim: (targetId: string) => boolean;
  attempts?: number;
}

/** Claims the user's page; undefined when none is free (the client opens a tab of its own). */
export async function claimUserPage(o: UserPageChoice): Promise<string | undefined> {
  if (o.mode === 'new') return undefined;
  const otherAgent = o.otherAgent ?? claimedByAgentWorld;
  // A background tab is never taken: selecting it would hide the tab another client works in.
  const taken = (p: PageCandidate) => !!o.ownedHere?.(p.targetId) || !!o.claims?.isClaimed(p.targetId) || otherAgent(p) || p.visible === false;
  for (let attempt = 0; attempt < (o.attempts ?? 1); attempt++) {
    const pages = o.link ? await probePages(o.link).catch((e) => ignore(e, 'no page read: none to show', [])) : await lookAtPages(o.wsUrl, o.headers);
    // Probing took a while: others may have claimed pages meanwhile, so choose and claim now, without
    // awaiting in between (one event-loop turn: no other client of this process can claim in the middle).
    const pick = chooseAttachTab(o.among ? pages.filter((p) => o.among!(p.targetId)) : pages, { mode: o.mode, isClaimed: taken });
    if (!pick) return undefined;
    if (o.claim(pick)) return pick;
    // Someone claimed it between our look and our claim: look again.
  }
  return undefined;
}

/**
 * The browser's pages, probed on a short-lived connection of our own (probing attaches to each page; a
 * shared connection must keep those sessions from its clients, as the daemon's hub does with `link`). None when
 * the browser cannot be reached.
 */
async function lookAtPages(wsUrl: string | undefined, headers: Record<string, string> | undefined): Promise<PageCandidate[]> {
  if (!wsUrl) return [];
  const conn = await CdpConnection.connect(wsUrl, { headers, timeoutMs: 5000 }).catch((e) => ignore(e, 'a browser that cannot be reached has no pages to show'));
  if (!conn) return [];
  try {
    return await probePages(connectionLink(conn)).catch((e) => ignore(e, 'no page read: none to show', []));
  } finally {
    conn.close();
  }
}
