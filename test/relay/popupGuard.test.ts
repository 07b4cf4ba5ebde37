import assert from 'node:assert/strict';
import { daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { freePort, pairedChrome, type ChromeWithExtension } from '../helpers/relay';
import { blockedRoutes, startLoggedServer, type LoggedServer } from '../helpers/loggedServers';
import { requestRegexRules } from '../../src/safety/regexRules';
import type { CdpSession } from '../../src/session/cdp';

const refOf = (snap: string, name: RegExp) => {
  const line = snap.split('\n').find((l) => name.test(l));
  assert.ok(line, `no ${name} in:\n${snap}`);
  return /\[([^\]]+)\]/.exec(line!)![1];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The shared page: popups onto the blocked server (B), one outside the allow list (C) and an allowed one, by script and by link. */
const opener = (b: string, c: string) => `<!doctype html><title>Opener</title>
<button onclick="window.open('${b}/popup')">Open window</button>
<a href="${b}/blank" target="_blank">Open link</a>
<button onclick="window.open('${c}/popup')">Open outside window</button>
<a href="${c}/blank" target="_blank">Open outside link</a>
<button onclick="window.open('/popup-allowed')">Open allowed</button>`;

const ALLOWED_POPUP = `<!doctype html><title>Allowed popup</title><button onclick="document.getElementById('out').textContent = 'pressed'">Press</button><p id=out>waiting</p>`;

// Through the extension relay there is no browser-wide auto-attach: a popup of a shared page is shared only
// once it exists, and its first request went out before any debugger reached it. The extension now holds the
// session's origin rules as Chrome's own request blocking (declarativeNetRequest), from that first request on.
describe('relay: popups of a shared page send nothing to a blocked origin, first request included (real Chromium + extension, real daemon, real MCP client)', function () {
  this.timeout(240_000);
  let allowed: LoggedServer;
  let blocked: LoggedServer;
  let outside: LoggedServer;
  let chrome: ChromeWithExtension;
  let env: Record<string, string>;
  let mcp: McpProc | undefined;
  let shared: { targetId: string; tabId: number };
  let mine: { targetId: string; tabId: number };
  const opened = new Set<string>();

  const rules = () => chrome.worker<{ id: number }[]>('chrome.declarativeNetRequest.getSessionRules()');
  const sharedTabs = async () => (await chrome.worker<{ shared: { tabId: number; url: string }[] }>('browserAgentRelay.state()')).shared;
  /** Popups the earlier steps left shared are let go (the agent's tab stays). */
  const unsharePopups = async () => {
    for (const t of await sharedTabs()) if (t.tabId !== shared.tabId) await chrome.worker(`browserAgentRelay.unshare(${t.tabId})`);
  };
  /**
   * The test's own CDP session on the shared tab: it acts while Chrome has the extension's worker stopped. Detached
   * after each test: Chrome counts the tab as attached while it is, and the extension would not attach to share it again.
   */
  let hands: CdpSession | undefined;
  /** Responses of the allowed server's /redirect-later, held until the test lets them redirect to the blocked server. */
  const heldRedirects: (() => void)[] = [];
  const releaseRedirects = () => heldRedirects.splice(0).forEach((f) => f());
  const pageTargets = async () => ((await chrome.conn.send('Target.getTargets')).targetInfos as { targetId: string; type: string; url: string }[]).filter((t) => t.type === 'page');
  const workerRunning = async () => ((await chrome.conn.send('Target.getTargets')).targetInfos as { type: string; url: string }[]).some((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${chrome.extensionId}/`));
  const stopWorker = async () => {
    await chrome.stopWorkers();
    await until(async () => !(await workerRunning()), 10_000, 'Chrome to stop the worker');
  };
  /** Side panel tabs reconnect to a stopped worker and wake it. */
  const closePanels = async () => {
    for (const t of await pageTargets()) if (t.url.startsWith(`chrome-extension://${chrome.extensionId}/panel.html`)) await chrome.conn.send('Target.closeTarget', { targetId: t.targetId });
  };
  /** Where the worker put a tab: shared with the agent (a popup of a shared page) or counted the person's. */
  const placement = (tabId: number) =>
    chrome.worker<{ shared: boolean; person: boolean }>(
      `chrome.storage.session.get('requestRules').then(({ requestRules }) => ({ shared: browserAgentRelay.state().shared.some((t) => t.tabId === ${tabId}), person: !!requestRules?.persons.includes(${tabId}) }))`,
    );
  /**
   * The shared page runs `script`, which opens a popup, while Chrome has the extension's worker stopped: the popup's
   * own events wake it. Resolves with the popup's target once the worker has placed it, which must be as the shared
   * page's popup, never as the person's tab.
   */
  const popupWithWorkerStopped = async (script: string, frontTargetId: string): Promise<string> => {
    await unsharePopups();
    await closePanels();
    await chrome.conn.send('Target.activateTarget', { targetId: frontTargetId });
    const before = new Set((await pageTargets()).map((t) => t.targetId));
    blocked.log.length = 0;
    await stopWorker();
    hands = chrome.conn.session((await chrome.conn.send('Target.attachToTarget', { targetId: shared.targetId, flatten: true })).sessionId);
    await hands.send('Runtime.evaluate', { expression: script, userGesture: true });
    await until(workerRunning, 10_000, 'the popup to wake the worker');
    let popup: string | undefined;
    await until(async () => !!(popup = (await pageTargets()).find((t) => !before.has(t.targetId))?.targetId), 10_000, 'the popup to open');
    const tabId = await chrome.worker<number>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(popup)})?.tabId)`);
    await until(async () => Object.values(await placement(tabId)).some(Boolean), 15_000, 'the worker to place the popup');
    assert.deepEqual(await placement(tabId), { shared: true, person: false }, 'the popup is the shared page\'s, not the person\'s');
    return popup!;
  };
  /** A click in the shared page (a popup becomes the agent's current tab: back to the shared one first). */
  const click = async (name: RegExp, inShared = true) => {
    if (inShared) await mcp!.call('browser_tabs', { action: 'select', id: shared.targetId });
    const snap = (await mcp!.call('browser_snapshot')).text;
    const r = await mcp!.call('browser_click', { ref: refOf(snap, name) });
    assert.equal(r.isError, false, r.text);
  };

  before(async () => {
    blocked = await startLoggedServer(blockedRoutes());
    outside = await startLoggedServer(blockedRoutes());
    allowed = await startLoggedServer({ '/': '<title>home</title>', '/private': '<title>Private mail</title>', '/popup-allowed': ALLOWED_POPUP });
    allowed.route('/opener', opener(blocked.origin, outside.origin));
    env = { ...daemonEnv(5000, 'direct'), BROWSER_AGENT_RELAY_PORT: String(await freePort()) };
    ({ chrome } = await pairedChrome(env));
    // The test's own view of the browser: every page target and the URLs it was given.
    const note = (p: { targetInfo: { type: string; url: string } }) => p.targetInfo.type === 'page' && opened.add(p.targetInfo.url);
    chrome.conn.on('Target.targetCreated', note);
    chrome.conn.on('Target.targetInfoChanged', note);
    await chrome.conn.send('Target.setDiscoverTargets', { discover: true });
    // A tab of the person's own, open before any session, on the same site as the shared page.
    mine = await chrome.open(`${allowed.origin}/private`);
    shared = await chrome.open(`${allowed.origin}/opener`);
    await chrome.worker(`browserAgentRelay.share(${shared.tabId})`);
    allowed.route('/redirect-later', (_req, res) => heldRedirects.push(() => (res.writeHead(302, { location: `${blocked.origin}/redirected` }), res.end())));
  });
  afterEach(async () => {
    if (hands) await chrome.conn.send('Target.detachFromTarget', { sessionId: hands.id }).catch(() => {});
    hands = undefined;
  });
  after(async () => {
    releaseRedirects();
    await mcp?.close().catch(() => {});
    await runDaemonCli(env, 'stop');
    await chrome?.stop();
    await Promise.all([allowed, blocked, outside].map((s) => s?.close()));
  });

  it('Chrome takes every rule the origin lists can give (RE2, within its limits)', async () => {
    const lists = [
      { blockedOrigins: ['127.0.0.1', 'localhost:*', '*.example.com', 'https://*.bank.example:8443', 'ex*le.com', 'http*://example.org:80*', '[::1]:3000', 'bücher.de', '*:8080', 'me@example.net'], allowedOrigins: [] },
      { blockedOrigins: ['admin.example.com'], allowedOrigins: ['*', 'https://*.example.com', '127.0.0.1:*'] },
    ];
    // (The check can fail: RE2 has no look-ahead.)
    assert.equal((await chrome.worker<{ isSupported: boolean }>(`chrome.declarativeNetRequest.isRegexSupported({ regex: '^(?=a)' })`)).isSupported, false);
    for (const settings of lists) {
      const regexes = requestRegexRules(settings).map((r) => r.regex);
      const verdicts = await chrome.worker<{ isSupported: boolean; reason?: string }[]>(`Promise.all(${JSON.stringify(regexes)}.map((regex) => chrome.declarativeNetRequest.isRegexSupported({ regex })))`);
      verdicts.forEach((v, i) => assert.ok(v.isSupported, `${regexes[i]}: ${v.reason}`));
    }
  });

  it('block list: a popup by window.open and one by a target=_blank link reach the blocked server with nothing', async () => {
    mcp = await spawnMcp(env, ['--extension', '--blocked-origins', `127.0.0.1:${blocked.port}`, '--allow-confirm-actions', '--audit-dir', 'off'], 'popup-guard');
    const nav = await mcp.call('browser_navigate', { url: `${allowed.origin}/opener` });
    assert.equal(nav.isError, false, nav.text);
    blocked.log.length = 0;
    await click(/button "Open window"/);
    await click(/link "Open link"/);
    // Both popups exist (Chrome opened them) …
    await until(() => opened.has(`${blocked.origin}/popup`) && opened.has(`${blocked.origin}/blank`), 10_000, `both popups to open: ${JSON.stringify([...opened])}`);
    await sleep(2000);
    // … and the blocked server heard nothing from either, not even the first navigation.
    assert.deepEqual(blocked.log, []);
    assert.ok((await rules()).length > 0, 'the session\'s rules are in force as Chrome session rules');
    // The side panel says so for the shared tab.
    assert.ok((await chrome.worker<{ guarded: number[] }>('browserAgentRelay.state()')).guarded.includes(shared.tabId));
    const panelId = await chrome.openPanel();
    const panel = chrome.conn.session((await chrome.conn.send('Target.attachToTarget', { targetId: panelId, flatten: true })).sessionId);
    const tabsText = async () => (await panel.send('Runtime.evaluate', { expression: `document.getElementById('tabs')?.innerText ?? ''`, returnByValue: true })).result.value as string;
    await until(async () => /Opener[\s\S]*Blocked sites stay blocked in its popups\./.test(await tabsText()), 5000, 'the side panel to say so');
    await chrome.conn.send('Target.closeTarget', { targetId: panelId });
  });

  // The worker stopped as the popup opens (the popup's own events wake it), each with the shared tab in front (Chrome
  // names it the popup's opener) and with another tab in front (Chrome names that one). The new worker got the
  // opener's Page.windowOpen before it had restored its shared tabs and dropped it, then counted the popup the
  // person's (at wake-up, or after 0.5 s unclaimed): its page loaded from the blocked origin when its request
  // came after that. The blank and redirected popups make that request only once the worker has placed the popup.
  for (const front of ['the shared tab', 'another tab'] as const) {
    const frontTab = () => (front === 'the shared tab' ? shared : mine).targetId;

    it(`… also when Chrome has stopped the extension's service worker as the popup opens (${front} in front)`, async () => {
      await popupWithWorkerStopped(`window.open('${blocked.origin}/popup')`, frontTab());
      await sleep(1000);
      assert.deepEqual(blocked.log, []);
    });

    it(`… and a blank popup that woke the stopped worker, sent to the blocked origin after the worker is back (${front} in front)`, async () => {
      const popup = await popupWithWorkerStopped(`window.popup = window.open('about:blank')`, frontTab());
      await hands!.send('Runtime.evaluate', { expression: `window.popup.location = '${blocked.origin}/late'` });
      await until(async () => (await pageTargets()).some((t) => t.targetId === popup && t.url.endsWith('/late')), 10_000, 'the popup to try the blocked origin');
      await sleep(1000);
      assert.deepEqual(blocked.log, []);
    });

    it(`… and a popup that woke the stopped worker, redirected to the blocked origin after the worker is back (${front} in front)`, async () => {
      allowed.log.length = 0;
      const popup = await popupWithWorkerStopped(`window.open('${allowed.origin}/redirect-later')`, frontTab());
      await until(() => allowed.log.includes('GET /redirect-later'), 10_000, 'the popup\'s first request');
      releaseRedirects();
      await until(async () => (await pageTargets()).some((t) => t.targetId === popup && t.url.endsWith('/redirected')), 10_000, 'the popup to try the blocked origin');
      await sleep(1000);
      assert.deepEqual(blocked.log, []);
    });
  }

  // A new tab nothing says who opened: Chrome names the tab in front as its opener (a shared page in front, a popup
  // of it?), or it opened while the worker was stopped (the stopping worker may have taken the opener's
  // Page.windowOpen with it). Fail closed: it is not counted the person's, and stays under the shared tabs' sites'
  // rules; its own first request (no page started it) is untouched. Before, such a tab was the person's (at once,
  // or 0.5 s later).
  for (const [when, stopped] of [['while the worker was stopped', true], ['with the shared tab in front', false]] as const) {
    it(`a tab that opened ${when}, and that no window-open claims, stays under the shared tabs' sites' rules (its own first request is untouched)`, async () => {
      await unsharePopups();
      await closePanels();
      await chrome.conn.send('Target.activateTarget', { targetId: (stopped ? mine : shared).targetId });
      if (stopped) await stopWorker();
      else assert.ok(await workerRunning());
      allowed.log.length = 0;
      blocked.log.length = 0;
      const { targetId } = await chrome.conn.send('Target.createTarget', { url: `${allowed.origin}/` });
      await until(workerRunning, 10_000, 'the new tab to wake the worker');
      await until(() => allowed.log.includes('GET /'), 10_000, 'the tab\'s own first request');
      const tabId = await chrome.worker<number>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`);
      await sleep(3000);
      assert.deepEqual(await placement(tabId), { shared: false, person: false });
      // A page on the shared tab's site in it (the initiator) goes to the blocked origin: held.
      const tab = chrome.conn.session((await chrome.conn.send('Target.attachToTarget', { targetId, flatten: true })).sessionId);
      await tab.send('Runtime.evaluate', { expression: `location.href = ${JSON.stringify(`${blocked.origin}/page`)}` });
      await until(async () => (await pageTargets()).some((t) => t.targetId === targetId && t.url.endsWith('/page')), 10_000, 'the tab to try the blocked origin');
      await sleep(1000);
      assert.deepEqual(blocked.log, []);
      await chrome.conn.send('Target.closeTarget', { targetId });
    });
  }

  it('an allowed popup loads, is shared and usable', async () => {
    await unsharePopups();
    allowed.log.length = 0;
    await click(/button "Open allowed"/);
    await until(() => allowed.log.includes('GET /popup-allowed'), 10_000, 'the allowed popup to load');
    await until(async () => /Allowed popup/.test((await mcp!.call('browser_tabs', { action: 'list' })).text), 10_000, 'the popup to show up for the agent').catch(async (e) => {
      throw new Error(`${e.message}: ${(await mcp!.call('browser_tabs', { action: 'list' })).text}; shared: ${JSON.stringify(await sharedTabs())}`);
    });
    const list = (await mcp!.call('browser_tabs', { action: 'list' })).text;
    const id = /\[id ([0-9A-F]+)\]/.exec(list.split('\n').find((l) => /Allowed popup/.test(l)) ?? '')?.[1];
    assert.ok(id, list);
    assert.equal((await mcp!.call('browser_tabs', { action: 'select', id })).isError, false);
    await click(/button "Press"/, false);
    assert.match((await mcp!.call('browser_snapshot')).text, /pressed/);
    // Once the popup's own guard intercepts, it decides there (Chrome's rule for the popup is gone) and names the refusal.
    blocked.log.length = 0;
    const r = await mcp!.call('browser_evaluate', { script: `await fetch(${JSON.stringify(`${blocked.origin}/fetch`)}, { mode: 'no-cors' }).then(() => 'reached', () => 'refused')` });
    assert.match(r.text, /refused/, JSON.stringify(r));
    assert.match(r.text, /BLOCKED_BY_POLICY: an? \w+ request to .*\/fetch.* was stopped before it was sent \(rule blocked-origin/, r.text);
    assert.deepEqual(blocked.log, []);
    await mcp!.call('browser_tabs', { action: 'select', id: shared.targetId });
  });

  it('the person\'s own tabs are untouched: one open before, and one they open now, reach the "blocked" origin', async () => {
    blocked.log.length = 0;
    // Their tab open since before the session, on the shared page's site, goes to the blocked origin …
    const page = chrome.conn.session((await chrome.conn.send('Target.attachToTarget', { targetId: mine.targetId, flatten: true })).sessionId);
    await page.send('Runtime.evaluate', { expression: `location.href = ${JSON.stringify(`${blocked.origin}/page`)}` });
    // … and a new tab they open (typed, a bookmark: no page started it).
    await chrome.open(`${blocked.origin}/direct`);
    await until(() => blocked.log.includes('GET /page') && blocked.log.includes('GET /direct'), 10_000, `the person's tabs to load: ${JSON.stringify(blocked.log)}`);
  });

  it('when the session ends no rule is left', async () => {
    assert.ok((await rules()).length > 0);
    await mcp!.close();
    mcp = undefined;
    await until(async () => (await rules()).length === 0, 10_000, 'the rules to go with the session');
    assert.deepEqual((await chrome.worker<{ guarded: number[] }>('browserAgentRelay.state()')).guarded, []);
  });

  it('allow list: a popup outside it sends nothing; unsharing the tab leaves no rule', async () => {
    await unsharePopups();
    mcp = await spawnMcp(env, ['--extension', '--allowed-origins', `127.0.0.1:${allowed.port}`, '--audit-dir', 'off'], 'popup-guard-allow');
    const nav = await mcp.call('browser_navigate', { url: `${allowed.origin}/opener` });
    assert.equal(nav.isError, false, nav.text);
    outside.log.length = 0;
    await click(/button "Open outside window"/);
    // The popup becomes the agent's current tab when the relay reports it; wait for that before the next click, or
    // a late report moves the current tab between that click's snapshot and the click (its ref then fails, rightly).
    await until(async () => (await mcp!.call('browser_tabs', { action: 'list' })).text.includes(`${outside.origin}/popup`), 10_000, 'the outside popup to reach the agent');
    await click(/link "Open outside link"/);
    await sleep(2500);
    assert.deepEqual(outside.log, []);
    // The allowed origin still opens.
    allowed.log.length = 0;
    await click(/button "Open allowed"/);
    await until(() => allowed.log.includes('GET /popup-allowed'), 10_000, 'the allowed popup to load');
    assert.ok((await rules()).length > 0);
    // Unshare until none is left: the allowed popup may be shared (as its opener's) after a first listing.
    await until(async () => {
      for (const t of await sharedTabs()) await chrome.worker(`browserAgentRelay.unshare(${t.tabId})`);
      return (await rules()).length === 0;
    }, 10_000, 'the rules to go with the unshared tabs');
  });

  it('a daemon that died leaves stale rules: they go as soon as the extension meets a new daemon', async () => {
    await chrome.worker(`browserAgentRelay.share(${shared.tabId})`);
    await mcp?.close().catch(() => {});
    mcp = await spawnMcp(env, ['--extension', '--blocked-origins', `127.0.0.1:${blocked.port}`, '--audit-dir', 'off'], 'popup-guard-stale');
    assert.equal((await mcp.call('browser_navigate', { url: `${allowed.origin}/opener` })).isError, false);
    assert.ok((await rules()).length > 0);
    const { pid } = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout) as { pid: number };
    process.kill(pid, 'SIGKILL');
    await sleep(500);
    // Nobody told the extension: the rules are still in force (safe, and stale).
    assert.ok((await rules()).length > 0);
    const again = await runDaemonCli(env, 'pair', '--json');
    assert.equal(again.code, 0, again.stderr);
    await until(async () => (await rules()).length === 0, 30_000, 'the stale rules to go once the extension meets the new daemon');
  });
});
