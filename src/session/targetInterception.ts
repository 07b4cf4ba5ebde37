// What the request guard installs in each target it attaches to, and keeps in line with the policy:
// Fetch interception (and the browser-level one behind it), the extension relay's tab rules, page
// events for the second line, and the WebSocket barrier (with a service worker's renderer URL blocking).
import type { Protocol } from 'devtools-protocol';
import { ignore } from '../base/ignore';
import type { CdpConnection } from './cdp';
import { FETCH_TYPES, SETUP_TIMEOUT_MS, sender, type GuardedTarget } from './guardedTarget';
import { TAB_RULES_METHOD, type TabRules } from './relayProtocol';
import type { PolicyRules } from './requestRules';
import { socketBarrierSource } from './socketBarrier';

/** What the interception reads from the guard: the rules in force now, and what the browser gave it. */
export interface InterceptionHost {
  rules(): PolicyRules;
  /** Browser-wide auto-attach is real (undefined until the guard starts; see RequestGuard.childFilter). */
  browserWide(): boolean | undefined;
  /** Main-frame commits of this page reach the guard's session from now on. */
  pageEventsOn(t: GuardedTarget): void;
}

export class TargetInterception {
  /**
   * The Fetch patterns installed at the browser level (JSON, '' for none), or undefined where that
   * level is not ours to use (a shared browser: it would pause other clients' requests; the daemon's
   * proxy and the extension relay have none). See setBrowserFetch.
   */
  browserFetch?: string;
  /** The transport takes tab rules (the extension relay); false once it said it does not (any other). */
  private tabRulesTaken?: boolean;
  /** The binding through which WebSocket barriers report what they refused; unguessable per browser. */
  readonly binding = `__browserAgentGuard_${Math.random().toString(36).slice(2)}`;

  constructor(
    private readonly connection: CdpConnection,
    private readonly host: InterceptionHost,
  ) {}

  private get rules(): PolicyRules {
    return this.host.rules();
  }

  /**
   * Sets up a target the guard just attached to, then releases it if it was paused at its start.
   * `childFilter`: what its own auto-attach leaves out (RequestGuard.childFilter).
   */
  async setUp(t: GuardedTarget, waitingForDebugger: boolean, childFilter: Protocol.Target.TargetFilter | undefined): Promise<void> {
    const send = sender(this.connection, t.sessionId);
    try {
      const steps: Promise<unknown>[] = [];
      if (FETCH_TYPES.has(t.type) && this.rules.active) {
        steps.push(this.setFetch(t, this.rules.fetchPatterns()).then(() => this.setTabRules(t)));
        // A service worker paused at start has no JavaScript yet, and a new tab opened without an opener
        // (`target=_blank`, noopener) no renderer yet: their Page and Runtime commands are answered only once
        // they run (a tab waited 5 s, the set-up timeout), so they are sent (before the release, in order)
        // but not waited for.
        const renderer = [this.setPageEvents(t), this.setPatterns(t, this.rules.socketPatterns())];
        if (t.type === 'service_worker' || (t.type === 'page' && waitingForDebugger)) renderer.forEach((r) => r.catch((e) => ignore(e, 'answered only once it runs; not waited for')));
        else steps.push(...renderer);
      }
      // Children of this target (out-of-process iframes, dedicated workers) are paused until guarded too.
      if (t.type === 'page' || t.type === 'iframe' || t.type.endsWith('worker')) {
        // Service workers are guarded from the browser-level session only (see NO_SERVICE_WORKERS), where there is one.
        steps.push(send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: childFilter }).catch((e) => ignore(e, 'the target went away')));
      }
      await Promise.all(steps);
    } catch (e) {
      ignore(e, 'the target went away while we set it up');
    } finally {
      // Not waited for: a service worker answers only once every client attached to it (another CDP client's
      // too) has released it; our tabs leave service workers to this session (NO_SERVICE_WORKERS).
      if (waitingForDebugger) void send('Runtime.runIfWaitingForDebugger').catch((e) => ignore(e, 'the target went away'));
    }
  }

  /** `patterns`: JSON of the URL patterns to pause, '' for none. Fetch.enable again replaces the patterns. */
  async setFetch(t: GuardedTarget, patterns: string): Promise<void> {
    if (patterns) {
      const list = (JSON.parse(patterns) as string[]).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const }));
      await this.connection.send('Fetch.enable', { patterns: list }, t.sessionId, SETUP_TIMEOUT_MS);
    } else await this.connection.send('Fetch.disable', undefined, t.sessionId, SETUP_TIMEOUT_MS);
    t.fetch = patterns;
  }

  /**
   * Through the extension relay (no browser-wide auto-attach): the tab's rules for Chrome's own request
   * blocking (declarativeNetRequest), which the extension applies to the tabs this tab opens from their
   * first request on, before any debugger reaches them, and to this tab until its interception is on
   * (`intercepting`: then Fetch decides, and names each refusal). Only where browser-wide auto-attach is
   * not real; a transport that does not know the method (the daemon's proxy to a real browser) says so
   * once and is not asked again.
   */
  async setTabRules(t: GuardedTarget): Promise<void> {
    if (t.type !== 'page' || this.host.browserWide() !== false || this.tabRulesTaken === false) return;
    const active = this.rules.active;
    const rules: TabRules = { rules: active ? this.rules.regexRules() : [], intercepting: active && !!t.fetch };
    const want = JSON.stringify(rules);
    if (t.tabRules === want) return;
    t.tabRules = want;
    try {
      await this.connection.send(TAB_RULES_METHOD as 'Page.enable', rules as never, t.sessionId, SETUP_TIMEOUT_MS);
      this.tabRulesTaken = true;
    } catch (e) {
      t.tabRules = undefined;
      if (/wasn't found/.test((e as Error).message) && !this.tabRulesTaken) this.tabRulesTaken = false;
    }
  }

  /**
   * Interception at the browser level, behind the targets' own: Chrome puts it into every request
   * loader created after this call, whoever the loader is for. A target's own `Fetch.enable` reaches
   * loaders made before it only by an update sent to the renderer; a service worker started again
   * gets its loaders at its start, and the update arrived after its first requests had gone out
   * (its fetch in the first event it handled reached a blocked server). The targets' interception
   * still pauses first (and says which tab a refusal belongs to); this level sees what passed there,
   * or what no target interception saw.
   */
  async setBrowserFetch(patterns: string): Promise<void> {
    try {
      if (patterns) await this.connection.send('Fetch.enable', { patterns: (JSON.parse(patterns) as string[]).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) }, undefined, SETUP_TIMEOUT_MS);
      else await this.connection.send('Fetch.disable', undefined, undefined, SETUP_TIMEOUT_MS);
      this.browserFetch = patterns;
    } catch {
      // Refused: the targets' interception is the only one.
      this.browserFetch = undefined;
    }
  }

  /** Main-frame commits of a page reach the guard's session (for the second line); once per target. */
  async setPageEvents(t: GuardedTarget): Promise<void> {
    if (t.type !== 'page' || t.pageEvents) return;
    t.pageEvents = true;
    try {
      await this.connection.send('Page.enable', undefined, t.sessionId, SETUP_TIMEOUT_MS);
    } catch {
      t.pageEvents = false;
      return;
    }
    // A commit before this point was not seen (a tab another client created with a URL loads at once).
    this.host.pageEventsOn(t);
  }

  /**
   * Installs the WebSocket barrier for documents to come (pages, frames) and for the current one.
   * One batch: a session runs its commands in order, so none waits for the previous answer (a
   * frame or worker paused at start stays paused for one round trip, not five).
   */
  async setPatterns(t: GuardedTarget, patterns: string): Promise<void> {
    if (patterns === t.patterns) return;
    const send = sender(this.connection, t.sessionId);
    const batch: Promise<unknown>[] = [];
    if (t.scriptId) batch.push(send('Page.removeScriptToEvaluateOnNewDocument', { identifier: t.scriptId }).catch((e) => ignore(e, 'the old script went with its document')));
    t.scriptId = undefined;
    t.patterns = patterns;
    if (patterns !== '[]') {
      const source = socketBarrierSource(JSON.parse(patterns), this.binding);
      batch.push(send('Runtime.addBinding', { name: this.binding }));
      if (t.type === 'page' || t.type === 'iframe') {
        // Scripts for new documents only run in sessions with Page enabled, and the binding reaches them only with Runtime enabled.
        batch.push(send('Page.enable'), send('Runtime.enable'));
        // runImmediately: the current document (and its same-process frames) get it too.
        batch.push(send('Page.addScriptToEvaluateOnNewDocument', { source, runImmediately: true }).then((r) => (t.scriptId = r.identifier)));
      } else batch.push(send('Runtime.evaluate', { expression: source }).catch((e) => ignore(e, 'the target went away')));
    }
    // A service worker's request loaders can predate its interception (see setBrowserFetch); the renderer's own
    // URL blocking, set while it is paused at its start, stops its requests from its first line.
    if (t.type === 'service_worker') {
      const http = (JSON.parse(patterns) as { urlPattern: string; block: boolean }[]).map((r) => ({ ...r, urlPattern: r.urlPattern.replace(/^ws(s?):/, 'http$1:') }));
      batch.push(send('Network.enable').catch((e) => ignore(e, 'the worker stopped')), send('Network.setBlockedURLs', { urlPatterns: http }).catch((e) => ignore(e, 'the worker stopped')));
    }
    await Promise.all(batch);
  }
}
