import assert from 'node:assert/strict';
import { CdpConnection } from '../../src/session/cdp';
import type { PolicyAct } from '../../src/session/landedPageCheck';
import { sleep } from '../../src/session/launcher';
import { SessionManager } from '../../src/session/manager';
import type { RequestPolicy } from '../../src/session/requestRules';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import type { ToolContext, ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH, startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startLoggedServer, type LoggedServer } from '../helpers/loggedServers';
import { policyFor } from '../helpers/requestPolicy';
import { toolContext } from '../helpers/tools';

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

async function until(fn: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await sleep(25);
  }
  return fn();
}

/**
 * The session's second line (src/session/landedPageCheck.ts) on real Chromium, with no tool
 * involved in what happens: pages the request guard cannot stop — one restored from the
 * back/forward cache (it sends no request), one already showing when the rule is added, a tab
 * another CDP client opens — are left or closed by the session itself, which records why; a tool
 * call afterwards tells the model. Each case runs first as a control with the page rule off (the
 * request rules stay on): the first line alone leaves the blocked page showing.
 */
describe('session: the landed-page check leaves what the request guard cannot stop (real Chromium, two loopback servers)', function () {
  this.timeout(90_000);
  let blocked: LoggedServer;
  let allowed: LoggedServer;
  let sessions: SessionManager;
  let ctx: ToolContext;
  const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };
  /** The second line's rule on (as the decider builds it) or off (requests only: the control). */
  let pageRule = true;
  const requests = policyFor(settings);
  const policy: RequestPolicy = { ...requests, checkPage: (url) => (pageRule ? requests.check(url) : undefined) };

  const browser = () => sessions.ensure();
  const acts = async (): Promise<PolicyAct[]> => (await browser()).landedCheck?.since(0) ?? [];
  const href = async () => (await (await browser()).activeTab()).evaluate<string>('location.href', 2000).catch(() => 'unreachable');
  const tool = (name: string, input: unknown) => runTool(findTool(name)!, input, ctx);

  before(async () => {
    // A page that keeps talking to its own server: a restored copy of it shows whether its requests get out.
    blocked = await startLoggedServer({
      // A fetch still in flight when the page is left keeps it out of the back/forward cache (a loaded machine made
      // that likely): the page aborts it on pagehide and ticks again once restored.
      '/ticking': `<title>ticking</title><p>blocked page text</p><script>
        let c, t; const tick = () => { c = new AbortController(); fetch("/tick", { signal: c.signal }).catch(() => {}); };
        t = setInterval(tick, 100);
        addEventListener("pagehide", () => { clearInterval(t); c?.abort(); });
        addEventListener("pageshow", (e) => { if (e.persisted) t = setInterval(tick, 100); });</script>`,
      '/page': '<title>blocked page</title><p>blocked</p>',
    });
    allowed = await startLoggedServer({ '/': '<title>home</title><p>allowed home</p>' });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    await sessions.setRequestPolicy(policy);
    ctx = toolContext(sessions, { maxWaitMs: 5000 });
  });
  after(async () => {
    await sessions?.close();
    await blocked?.close();
    await allowed?.close();
  });

  /** The rules as they are now, applied by the session (what the decider does before each tool call). */
  async function apply(block: boolean, pages: boolean): Promise<void> {
    settings.blockedOrigins = block ? [`127.0.0.1:${blocked.port}`] : [];
    pageRule = pages;
    await sessions.setRequestPolicy(policy);
  }

  async function navigate(url: string): Promise<void> {
    const page = await (await (await browser()).activeTab()).session();
    const loaded = page.waitFor('Page.loadEventFired', () => true, 10_000);
    await page.send('Page.navigate', { url });
    await loaded;
  }

  /** The blocked server's log stops growing (the page's timer is gone) within `ms`. */
  async function quiet(ms = 1000): Promise<number> {
    const n = blocked.log.length;
    await sleep(ms);
    return blocked.log.length - n;
  }

  it('a page restored from the back/forward cache onto a now-blocked origin: the guard sees no request, the session leaves it and a tool tells the model', async () => {
    await apply(false, true);
    await navigate(`${blocked.origin}/ticking`);
    await navigate(`${allowed.origin}/`);

    // Control: request rule on, page rule off. The page itself goes back; the restored page runs and its requests get out.
    await apply(true, false);
    const s = await browser();
    const tab = await s.activeTab();
    const page = await tab.session();
    const restoredOnce = page.waitFor('Page.frameNavigated', (p) => !p.frame.parentId, 10_000);
    let mark = s.guard.mark();
    await tab.evaluate('history.back()');
    assert.equal((await restoredOnce).type, 'BackForwardCacheRestore', 'the page comes back from the back/forward cache');
    blocked.log.length = 0;
    await sleep(1000);
    assert.equal(await href(), `${blocked.origin}/ticking`, 'the first line alone leaves the restored page showing');
    assert.ok(blocked.log.some((l) => l.startsWith('GET /tick')), `its requests get past the request guard (${JSON.stringify(blocked.log)})`);
    assert.ok(!s.guard.blockedSince(mark).some((b) => b.navigation), 'the guard saw no navigation to stop');

    // Guarded: the same way back to it, with the page rule on.
    await navigate(`${allowed.origin}/`);
    await apply(true, true);
    const before = (await acts()).length;
    mark = s.guard.mark();
    const restored = page.waitFor('Page.frameNavigated', (p) => !p.frame.parentId, 10_000);
    await tab.evaluate('history.back()');
    assert.equal((await restored).type, 'BackForwardCacheRestore');
    assert.ok(await until(async () => (await href()) === 'about:blank', 3000), `the session left the page (at ${await href()})`);
    assert.equal(await quiet(), 0, 'nothing more reaches the blocked server');
    const act = (await acts()).slice(before).find((a) => a.targetId === tab.targetId);
    assert.ok(act, 'the session recorded what it did');
    assert.deepEqual({ did: act.did, cause: act.cause, rule: act.rule, url: act.url }, { did: 'left', cause: 'restored', rule: 'blocked-origin', url: `${blocked.origin}/ticking` });

    // The next tool call, whatever it is, tells the model why its tab is blank.
    const r = await tool('browser_snapshot', {});
    assert.match(
      textOf(r),
      /BLOCKED_BY_POLICY: since the last call, tab \w+ showed <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/ticking<\/page-content id=\w+> \(restored from the back\/forward cache, which sends no request\), which the safety policy blocks \(rule blocked-origin: .*matches the blocked origin.*\); the session left it for about:blank\./,
      textOf(r),
    );
    assert.doesNotMatch(textOf(r), /blocked page text/);
    const again = await tool('browser_snapshot', {});
    assert.doesNotMatch(textOf(again), /since the last call/, 'told once');
  });

  it('browser_navigate_back onto a cached page of a now-blocked origin: the action fails naming the rule, the tab is blank', async () => {
    await apply(false, true);
    await navigate(`${blocked.origin}/ticking`);
    await navigate(`${allowed.origin}/`);
    await apply(true, true);
    const r = await tool('browser_navigate_back', {});
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.match(textOf(r), /The action ended on <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/ticking<\/page-content id=\w+> \(restored from the back\/forward cache\), which the safety policy blocks \(rule blocked-origin: .*\); the session left the page for about:blank\./, textOf(r));
    assert.equal(await href(), 'about:blank');
    assert.equal(await quiet(), 0);
    assert.doesNotMatch(textOf(await tool('browser_snapshot', {})), /since the last call/, 'reported once, by the action');
  });

  it('a page already showing when a block rule is added: the session leaves it as the rules apply, and a tool tells the model', async () => {
    // Control: the page rule off — the page stays (its requests are stopped from now on, but its text is still there to read).
    await apply(false, true);
    await navigate(`${blocked.origin}/ticking`);
    await apply(true, false);
    await sleep(300);
    assert.equal(await href(), `${blocked.origin}/ticking`, 'the first line alone leaves the page showing');

    await apply(false, true);
    await navigate(`${blocked.origin}/ticking`);
    const tab = await (await browser()).activeTab();
    const before = (await acts()).length;
    await apply(true, true); // resolves once the page is left
    assert.equal(await href(), 'about:blank', 'left by the time the rules are applied');
    const act = (await acts()).slice(before).find((a) => a.targetId === tab.targetId);
    assert.deepEqual(act && { did: act.did, cause: act.cause, rule: act.rule }, { did: 'left', cause: 'changed', rule: 'blocked-origin' });
    assert.equal(await quiet(), 0);

    const r = await tool('browser_wait', { timeMs: 50 });
    assert.match(textOf(r), /BLOCKED_BY_POLICY: since the last call, tab \w+ showed <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/ticking<\/page-content id=\w+> \(it was already showing when the rules applied\), which the safety policy blocks \(rule blocked-origin: /, textOf(r));
  });

  it('a tab another CDP client opens with a blocked URL: its first request is stopped too, and the session closes the tab', async () => {
    const s = await browser();
    const other = await CdpConnection.connect(s.endpoint);
    try {
      const exists = async (id: string) => (await other.send('Target.getTargets')).targetInfos.some((t) => t.targetId === id);
      // The first line alone: Target.createTarget with a URL starts loading before the new target can be paused,
      // so no interception of the target's own sees the document request (it used to get out). The guard's
      // browser-level interception is in the new tab's request loaders from the start: the request is stopped
      // and named for that tab; the tab stays, on Chrome's error page.
      await apply(true, false);
      blocked.log.length = 0;
      const mark = s.guard.mark();
      const { targetId: kept } = await other.send('Target.createTarget', { url: `${blocked.origin}/ticking` });
      await sleep(1500);
      assert.ok(await exists(kept), 'the first line alone leaves the tab open');
      assert.deepEqual(blocked.log, [], 'the document request did not get out');
      const stopped = s.guard.blockedSince(mark).find((b) => b.navigation);
      assert.deepEqual(stopped && { targetId: stopped.targetId, rule: stopped.rule, url: stopped.url }, { targetId: kept, rule: 'blocked-origin', url: `${blocked.origin}/ticking` });
      await other.send('Target.closeTarget', { targetId: kept });

      // Both lines: the session closes a fresh tab whose first navigation was stopped, and says so.
      await apply(true, true);
      blocked.log.length = 0;
      const before = (await acts()).length;
      const { targetId } = await other.send('Target.createTarget', { url: `${blocked.origin}/ticking` });
      assert.ok(await until(async () => !(await exists(targetId)), 5000), 'the session closed the tab');
      assert.equal(await quiet(), 0);
      assert.deepEqual(blocked.log, [], 'nothing reached the blocked server');
      const act = (await acts()).slice(before).find((a) => a.targetId === targetId);
      assert.deepEqual(act && { did: act.did, cause: act.cause, url: act.url }, { did: 'closed', cause: 'stopped', url: `${blocked.origin}/ticking` });

      const r = await tool('browser_tabs', { action: 'list' });
      assert.match(textOf(r), /BLOCKED_BY_POLICY: since the last call, a new tab on <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/ticking<\/page-content id=\w+> was opened, which the safety policy blocks \(rule blocked-origin: .*\); the session closed it\./, textOf(r));
      assert.doesNotMatch(textOf(r), /ticking<\/page-content id=\w+> \[id/, 'the tab is not listed');
    } finally {
      other.close();
    }
  });
});

describe('session: the landed-page check in a browser we attached to (a person\'s Chromium)', function () {
  this.timeout(90_000);
  let ext: ExternalBrowser;
  let person: CdpConnection;
  let blocked: LoggedServer;
  let sessions: SessionManager;
  const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };

  before(async () => {
    blocked = await startLoggedServer({ '/page': '<title>their page</title><p>the person reads this</p>' });
    ext = await startExternalChromium();
    person = await CdpConnection.connect(ext.wsEndpoint);
  });
  after(async () => {
    await sessions?.close();
    person?.close();
    await ext?.stop();
    await blocked?.close();
  });

  it('leaves a person\'s tab on a blocked origin alone until the agent takes it up, then leaves it and says so', async () => {
    const { targetId } = await person.send('Target.createTarget', { url: `${blocked.origin}/page` });
    const urlOf = async () => (await person.send('Target.getTargets')).targetInfos.find((t) => t.targetId === targetId)?.url;
    assert.ok(await until(async () => (await urlOf()) === `${blocked.origin}/page`, 5000), 'the person\'s page loaded');

    sessions = new SessionManager(() => ({ mode: 'attach', launch: TEST_LAUNCH, attach: { endpoint: ext.wsEndpoint }, attachTab: 'new' }));
    const ctx = toolContext(sessions, { maxWaitMs: 5000 });
    await sessions.ensure();
    settings.blockedOrigins = [`127.0.0.1:${blocked.port}`];
    await sessions.setRequestPolicy(policyFor(settings));
    await sleep(500);
    assert.equal(await urlOf(), `${blocked.origin}/page`, 'a tab the agent never used is left alone');

    const select = await runTool(findTool('browser_tabs')!, { action: 'select', id: targetId }, ctx);
    assert.equal(select.isError, undefined, textOf(select));
    assert.ok(await until(async () => (await urlOf()) === 'about:blank', 5000), `taken up, it is left (at ${await urlOf()})`);
    const r = await runTool(findTool('browser_snapshot')!, {}, ctx);
    assert.match(textOf(r), /BLOCKED_BY_POLICY: since the last call, tab \w+ showed <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/page<\/page-content id=\w+> \(it was showing when the agent took the tab up\), which the safety policy blocks \(rule blocked-origin: /, textOf(r));
    assert.doesNotMatch(textOf(r), /the person reads this/);
  });
});
