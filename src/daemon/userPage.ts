// Which page of an attached browser a new daemon session works in: the page the user has open and
// focused, as `--no-daemon` picks it (src/session/tabChoice.ts), even when DevTools or another tool
// is attached to it — but never a page another session of this daemon owns, a page another Browser
// Agent server (without the daemon) claimed or works in, or a background tab.
import { CdpConnection } from '../session/cdp';
import { chooseAttachTab, claimedByAgentWorld, probePages, type PageCandidate } from '../session/tabChoice';
import type { TabClaims } from '../session/tabClaims';
import type { BrowserHub, HubClient } from './hub';

export interface AttachedBrowser {
  endpoint: string;
  headers?: Record<string, string>;
  hub: BrowserHub;
  /** Claim files shared with servers that run without the daemon. */
  claims?: TabClaims;
}

/** Claims the user's page for `client`; undefined when there is none free (the client opens its own tab). */
export async function claimUserPage(browser: AttachedBrowser, client: HubClient): Promise<string | undefined> {
  // A look of our own on a short-lived connection: probing attaches to each page, and the hub's
  // connection routes page sessions to their clients only.
  let pages: PageCandidate[] = [];
  const conn = await CdpConnection.connect(browser.endpoint, { headers: browser.headers, timeoutMs: 5000 }).catch(() => undefined);
  if (conn) {
    try {
      pages = await probePages(conn).catch(() => []);
    } finally {
      conn.close();
    }
  }
  // Probing took a while: other sessions may have claimed pages meanwhile, so choose and claim now,
  // without awaiting in between (one event-loop turn: no other session can claim in the middle).
  const taken = (p: PageCandidate) => !!browser.hub.owner(p.targetId) || !!browser.claims?.isClaimed(p.targetId) || claimedByAgentWorld(p) || p.visible === false;
  const pick = chooseAttachTab(pages.filter((p) => browser.hub.targets.has(p.targetId)), { isClaimed: taken });
  if (!pick || !browser.hub.claim(client, pick)) return undefined;
  browser.claims?.claim(pick);
  return pick;
}
