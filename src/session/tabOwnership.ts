/**
 * Which client works in which tab of one browser, written once for both modes: the session daemon's hub
 * (many clients on one connection, src/daemon/hub.ts) and the in-process server (one client, the process
 * itself, src/session/processTabs.ts). A tab is a client's when it created the tab, was given it, or a tab
 * of its own opened it (a popup); a client sees, lists and closes only its own tabs. Between processes
 * attached to one browser, the claim files (src/session/tabClaims.ts) keep the peace.
 */
export class TabOwnership<C> {
  private readonly owners = new Map<string, C>();

  owner(tabId: string): C | undefined {
    return this.owners.get(tabId);
  }

  owns(client: C, tabId: unknown): boolean {
    return typeof tabId === 'string' && this.owners.get(tabId) === client;
  }

  /** The tab becomes the client's unless another client has it; true when it is (now) the client's. */
  claim(client: C, tabId: string): boolean {
    if (!this.owners.has(tabId)) this.owners.set(tabId, client);
    return this.owners.get(tabId) === client;
  }

  /** The tab is the client's, whoever had it: the client created it or attached to it. */
  assign(client: C, tabId: string): void {
    this.owners.set(tabId, client);
  }

  /** Gives the client the first tab nobody owns among `tabs` that `usable` accepts. */
  claimFirstFree<T extends { targetId: string }>(client: C, tabs: Iterable<T>, usable: (t: T) => boolean = () => true): string | undefined {
    for (const t of tabs) {
      if (this.owners.has(t.targetId) || !usable(t)) continue;
      this.owners.set(t.targetId, client);
      return t.targetId;
    }
    return undefined;
  }

  /** A popup belongs to whoever owns the page that opened it (a tab already owned keeps its owner). */
  adoptPopup(tabId: string, openerId: string | undefined): void {
    const opener = openerId ? this.owners.get(openerId) : undefined;
    if (opener !== undefined && !this.owners.has(tabId)) this.owners.set(tabId, opener);
  }

  /** The tab is gone. */
  forget(tabId: string): void {
    this.owners.delete(tabId);
  }

  /** The client is gone: its tabs are nobody's now. Returns them. */
  release(client: C): string[] {
    const tabs = [...this.owners].filter(([, c]) => c === client).map(([t]) => t);
    for (const t of tabs) this.owners.delete(t);
    return tabs;
  }

  /** Every client that owns a tab. */
  clients(): Set<C> {
    return new Set(this.owners.values());
  }
}
