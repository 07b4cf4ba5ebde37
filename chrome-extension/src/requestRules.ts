// Chrome's own request blocking (declarativeNetRequest session rules) for what the agent's request
// guard cannot reach in time. chrome.debugger has no browser-wide auto-attach: a tab a shared page
// opens (window.open, a target=_blank link) is shared only after it exists, and its first request
// went out before any debugger could pause it. The rules hold from that first request on.
//
// The policy is not decided here: the session's guard (src/session/requestGuard.ts) sends each shared
// tab's origin rules as URL regular expressions (src/safety/regexRules.ts); this file only scopes them:
// - "early" tabs: a shared tab until its guard's Fetch interception is on, and a popup of a shared tab
//   from the moment it is known to be one (tabIds);
// - tabs nobody has placed yet (every tab except the person's own, the shared ones and requests from
//   no tab), for requests a page of a shared tab's sites started (excludedTabIds + initiatorDomains):
//   a popup's first request, before its tabs.onCreated has even reached this worker. A tab the person
//   opens (typed, bookmark, another program) has no initiator and is never touched; a tab one of the
//   person's own pages on such a site opens is, for its first request only, until onCreated marks it
//   as the person's (a few milliseconds; see docs/safety.md). Fail closed: a tab a shared page may have
//   opened (Chrome names a shared tab its opener, or a shared page's window-open is unclaimed) that no
//   window-open claims, and a tab a new worker finds unplaced, are never marked the person's: the worker
//   cannot tell them from a popup whose window-open it missed.
// Rules survive this worker's restarts (they are Chrome's, not ours) but not the browser's; what they
// were made from is kept in chrome.storage.session beside them.
import type { TabRules } from '../../src/session/relayProtocol';

type Rule = TabRules['rules'][number];
type DnrRule = chrome.declarativeNetRequest.Rule;

interface GuardedTab extends TabRules {
  /** Hosts the tab's frames showed: the initiators of the popups it may open. */
  domains: string[];
}

interface State {
  /** The relay endpoint (daemon) whose sessions sent the rules: another one means they are stale. */
  epoch?: string;
  tabs: Record<string, GuardedTab>;
  /** Tabs that were open, or opened by the person, while rules were in force: never touched. */
  persons: number[];
}

/** Every resource type: a rule without the list leaves main_frame out. */
const RESOURCE_TYPES = ['main_frame', 'sub_frame', 'stylesheet', 'script', 'image', 'font', 'object', 'xmlhttprequest', 'ping', 'csp_report', 'media', 'websocket', 'webtransport', 'webbundle', 'other'] as chrome.declarativeNetRequest.ResourceType[];
const TAB_ID_NONE = -1;
const MAX_DOMAINS = 64;

function hostOf(url: string | undefined): string | undefined {
  if (!url || !/^(https?|wss?):/i.test(url)) return undefined;
  try {
    return new URL(url).hostname.replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The session rules for a state: first match wins within each tab's list (higher priority first). */
export function dnrRules(state: State, undecided: Iterable<number> = []): DnrRule[] {
  const groups = new Map<string, { rules: Rule[]; early: number[]; domains: Set<string> }>();
  const guarded: number[] = [];
  for (const [id, t] of Object.entries(state.tabs)) {
    if (!t.rules.length) continue;
    guarded.push(Number(id));
    const key = JSON.stringify(t.rules);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { rules: t.rules, early: [], domains: new Set() }));
    if (!t.intercepting) g.early.push(Number(id));
    for (const d of t.domains) g.domains.add(d);
  }
  const skip = new Set(undecided);
  const excluded = [...new Set([TAB_ID_NONE, ...state.persons, ...guarded])].filter((id) => !skip.has(id));
  const out: DnrRule[] = [];
  let id = 1;
  for (const g of groups.values()) {
    g.rules.forEach((r, i) => {
      const priority = g.rules.length - i;
      const action = { type: (r.block ? 'block' : 'allow') as chrome.declarativeNetRequest.RuleActionType };
      if (g.early.length) out.push({ id: id++, priority, action, condition: { regexFilter: r.regex, tabIds: g.early, resourceTypes: RESOURCE_TYPES } });
      if (g.domains.size) out.push({ id: id++, priority, action, condition: { regexFilter: r.regex, excludedTabIds: excluded, initiatorDomains: [...g.domains], resourceTypes: RESOURCE_TYPES } });
    });
  }
  return out;
}

export class RequestRules {
  private state: State = { tabs: {}, persons: [] };
  private readonly loaded: Promise<void>;
  private applying: Promise<void> = Promise.resolve();
  /** Tabs a guarded tab opened, until it is known whether its page opened them (guarded) or the person did. */
  private readonly undecided = new Set<number>();
  private epoch?: string;

  constructor() {
    this.loaded = chrome.storage.session.get('requestRules').then(async ({ requestRules }) => {
      if (requestRules) this.state = requestRules as State;
      // A new worker: a tab the last one had not placed (its claim died with it, or it opened while no worker
      // ran and its opener's window-open went with the last one) may be a shared page's popup. It stays
      // undecided, under the shared tabs' sites' rules, until a claim places it. Counted the person's, such a
      // popup reached a blocked origin (docs/safety.md, "wake-up race").
      if (this.active) {
        const placed = new Set([...Object.keys(this.state.tabs).map(Number), ...this.state.persons]);
        for (const t of await chrome.tabs.query({})) if (t.id !== undefined && !placed.has(t.id)) this.undecided.add(t.id);
      }
    });
  }

  private get active(): boolean {
    return Object.values(this.state.tabs).some((t) => t.rules.length > 0);
  }

  isGuarded(tabId: number): boolean {
    return !!this.state.tabs[tabId]?.rules.length;
  }

  /** Tabs under a session's origin rules (for the side panel). */
  guardedTabs(): number[] {
    return Object.keys(this.state.tabs).map(Number).filter((id) => this.isGuarded(id));
  }

  /** Called after each update of the rules. */
  onchange?: () => void;

  /** The relay endpoint this worker talks to now; rules from another one's sessions are dropped. */
  async setEpoch(epoch: string): Promise<void> {
    await this.loaded;
    this.epoch = epoch;
    if (this.state.epoch && this.state.epoch !== epoch) await this.clear();
  }

  /** A session's guard set the rules of a shared tab (`rules` empty: it has none any more). */
  async set(tabId: number, rules: TabRules, urls: string[]): Promise<void> {
    await this.loaded;
    if (!rules.rules.length) {
      if (!(tabId in this.state.tabs)) return;
      delete this.state.tabs[tabId];
      return this.apply();
    }
    if (!this.active) {
      // From now on tabs are placed as they open; those open already are the person's (or shared).
      this.state.persons = (await chrome.tabs.query({})).map((t) => t.id!).filter((id) => id !== undefined && id !== tabId && !(id in this.state.tabs) && !this.undecided.has(id));
    }
    const old = this.state.tabs[tabId];
    this.state.tabs[tabId] = { rules: rules.rules, intercepting: rules.intercepting, domains: old?.domains ?? [] };
    this.state.persons = this.state.persons.filter((id) => id !== tabId);
    this.state.epoch = this.epoch ?? this.state.epoch;
    for (const url of urls) this.addDomain(tabId, url);
    return this.apply();
  }

  /** A page of a guarded tab (or one of its frames) shows `url`: popups it opens start from that site. */
  async saw(tabId: number, url: string | undefined): Promise<void> {
    await this.loaded;
    if (this.addDomain(tabId, url)) return this.apply();
  }

  private addDomain(tabId: number, url: string | undefined): boolean {
    const t = this.state.tabs[tabId];
    const host = hostOf(url);
    if (!t || !host || t.domains.includes(host)) return false;
    t.domains = [...t.domains, host].slice(-MAX_DOMAINS);
    return true;
  }

  /** A new tab: the person's, unless a shared page may have opened it (then undecided until `adopt`). */
  async created(tabId: number, maybePopup: boolean): Promise<void> {
    await this.loaded;
    if (!this.active) return;
    // Found unplaced at wake-up: no window-open in this worker does not make it the person's.
    if (maybePopup || this.undecided.has(tabId)) {
      this.undecided.add(tabId);
      return;
    }
    return this.person(tabId);
  }

  /** The tab is the person's: never touched. */
  async person(tabId: number): Promise<void> {
    await this.loaded;
    this.undecided.delete(tabId);
    if (!this.active || this.state.persons.includes(tabId)) return;
    this.state.persons.push(tabId);
    return this.apply();
  }

  /** A guarded tab's page opened this tab: its opener's rules hold in it at once, until its own guard is in. */
  async adopt(tabId: number, openerTabId: number): Promise<void> {
    await this.loaded;
    this.undecided.delete(tabId);
    const opener = this.state.tabs[openerTabId];
    if (!opener?.rules.length || this.state.tabs[tabId]) return;
    this.state.tabs[tabId] = { rules: opener.rules, intercepting: false, domains: [] };
    this.state.persons = this.state.persons.filter((id) => id !== tabId);
    return this.apply();
  }

  /** The tab is no longer shared, or closed. */
  async drop(tabId: number): Promise<void> {
    await this.loaded;
    this.undecided.delete(tabId);
    const had = tabId in this.state.tabs;
    delete this.state.tabs[tabId];
    const persons = this.state.persons.filter((id) => id !== tabId);
    const changed = had || persons.length !== this.state.persons.length;
    this.state.persons = persons;
    if (changed) return this.apply();
  }

  /** Keeps the rules of these tabs only (after a wake-up: the tabs still shared). */
  async keepOnly(tabIds: Iterable<number>): Promise<void> {
    await this.loaded;
    const keep = new Set(tabIds);
    for (const id of Object.keys(this.state.tabs)) if (!keep.has(Number(id))) delete this.state.tabs[id];
    return this.apply();
  }

  /** No session is left to speak for the rules (the daemon went away): every rule goes. */
  async clear(): Promise<void> {
    await this.loaded;
    this.state = { tabs: {}, persons: [] };
    this.undecided.clear();
    return this.apply();
  }

  /** Installs the rules for the current state, replacing ours in one update; one update at a time. */
  private apply(): Promise<void> {
    const run = async () => {
      if (!this.active) this.state = { tabs: {}, persons: [] };
      await chrome.storage.session.set({ requestRules: this.state });
      const rules = dnrRules(this.state, this.undecided);
      const old = (await chrome.declarativeNetRequest.getSessionRules()).map((r) => r.id);
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old, addRules: rules });
      this.onchange?.();
    };
    this.applying = this.applying.then(run, run);
    return this.applying;
  }
}
