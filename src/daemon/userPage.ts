// Which page of an attached browser a new daemon session works in: the user's page, chosen as the in-process
// server chooses it (src/session/userPage.ts), and never a page another session of this daemon owns. The look
// goes through the daemon's own connection to the browser (BrowserHub.probeLink).
import type { TabClaims } from '../session/tabClaims';
import { claimUserPage as claimFreeUserPage } from '../session/userPage';
import type { BrowserHub, HubClient } from './hub';

export interface AttachedBrowser {
  endpoint: string;
  headers?: Record<string, string>;
  hub: BrowserHub;
  /** Claim files shared with servers that run without the daemon. */
  claims?: TabClaims;
}

/** Claims the user's page for `client`; undefined when there is none free (the client opens its own tab). */
export function claimUserPage(browser: AttachedBrowser, client: HubClient): Promise<string | undefined> {
  const { hub, claims } = browser;
  return claimFreeUserPage({
    // Through the hub's one connection: a look of our own would be one more DevTools connection per session
    // (one more "Allow remote debugging?" in a Chrome that asks per connection).
    link: hub.probeLink(),
    claims,
    ownedHere: (id) => !!hub.owner(id),
    among: (id) => hub.targets.has(id),
    claim: (id) => {
      if (!hub.claim(client, id)) return false;
      claims?.claim(id);
      return true;
    },
  });
}
