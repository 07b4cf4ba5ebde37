import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import type { CdpSession } from '../../src/session/cdp';
import { sleep } from '../../src/session/launcher';
import { policyFor } from '../helpers/requestPolicy';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { blockedRoutes, routesTo, startLoggedServer, type LoggedServer } from '../helpers/loggedServers';

async function until(fn: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (fn()) return true;
    await sleep(25);
  }
  return fn();
}

interface Route {
  name: string;
  run(page: CdpSession, s: BrowserSession): Promise<void>;
}

const js = (page: CdpSession, expression: string) => page.send('Runtime.evaluate', { expression, userGesture: true, awaitPromise: true });

describe('session: request guard (two loopback servers, the blocked one must get nothing)', function () {
  this.timeout(120_000);
  let s: BrowserSession;
  let allowed: LoggedServer;
  let blocked: LoggedServer;
  const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };
  let A: string;
  let B: string;

  before(async () => {
    blocked = await startLoggedServer(blockedRoutes());
    B = blocked.origin;
    allowed = await startLoggedServer(routesTo(B, crossSite(B)));
    A = allowed.origin;
    // `localhost.` (trailing dot) must resolve, so the unguarded run of that spelling can reach the server.
    const args = ['--host-resolver-rules=MAP localhost. 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost', '--disable-quic'];
    s = await BrowserSession.launch({ ...TEST_LAUNCH, args, requestPolicy: policyFor(settings) });
  });
  after(async () => {
    await s?.close();
    await allowed?.close();
    await blocked?.close();
  });

  /** One clean tab on the allowed server's `path`, loaded, with the policy set as asked. */
  async function freshTab(path: string, guard: boolean): Promise<CdpSession> {
    settings.blockedOrigins = guard ? [`127.0.0.1:${blocked.port}`, `localhost.:${blocked.port}`] : [];
    await s.guard.sync();
    for (const t of s.tabs().slice(1)) await s.closeTab(t.id).catch(() => undefined);
    const tab = await s.selectTab(s.tabs()[0].id);
    const page = await tab.session();
    const loaded = page.waitFor('Page.loadEventFired', () => true, 10_000);
    await page.send('Page.navigate', { url: `${A}${path}` });
    await loaded;
    // Late requests of the previous (unguarded) run — its page's own fetch, a favicon — must not count.
    for (let n = -1; n !== blocked.log.length;) {
      n = blocked.log.length;
      await sleep(300);
    }
    blocked.log.length = 0;
    return page;
  }

  const open = (path: string, then: Route['run']): Route['run'] => async (_page, sess) => {
    const page = await freshTabFor(path);
    await then(page, sess);
  };
  let freshTabFor: (path: string) => Promise<CdpSession>;

  const routes: Route[] = [
    { name: 'hex/short IPv4 spelling of the host', run: async (page) => void (await page.send('Page.navigate', { url: `http://0x7f.1:${blocked.port}/direct` })) },
    { name: 'direct navigation', run: async (page) => void (await page.send('Page.navigate', { url: `${B}/direct` })) },
    { name: '302 redirect', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/r302` })) },
    { name: '302 chain through the allowed origin', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/r1` })) },
    { name: 'link click', run: open('/link', (p) => js(p, `document.getElementById('go').click()`).then(() => undefined)) },
    { name: 'window.open popup', run: open('/popup', (p) => js(p, `document.getElementById('go').click()`).then(() => undefined)) },
    { name: 'target=_blank', run: open('/blank', (p) => js(p, `document.getElementById('go').click()`).then(() => undefined)) },
    { name: 'meta refresh 0 s', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/meta0` })) },
    { name: 'meta refresh 2 s', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/meta2` })) },
    { name: 'script navigation 1.5 s after load', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/timed` })) },
    { name: 'same-site iframe', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/iframe` })) },
    { name: 'cross-site (out-of-process) iframe', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/oopif` })) },
    { name: 'form GET', run: open('/formget', (p) => js(p, `document.getElementById('f').submit()`).then(() => undefined)) },
    { name: 'form POST', run: open('/formpost', (p) => js(p, `document.getElementById('f').submit()`).then(() => undefined)) },
    { name: 'new tab through a redirect', run: open('/tabredirect', (p) => js(p, `document.getElementById('go').click()`).then(() => undefined)) },
    { name: 'image, script and stylesheet', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/resources` })) },
    { name: 'fetch, XHR and beacon', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/calls` })) },
    { name: 'WebSocket', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/socket` })) },
    { name: 'WebSocket from a fresh iframe (the page tries to get an unguarded constructor)', run: open('/', (p) => js(p, `(() => { const f = document.createElement('iframe'); document.body.append(f); try { new f.contentWindow.WebSocket('${B.replace('http', 'ws')}/socket'); } catch (e) { return String(e); } })()`).then(() => undefined)) },
    { name: 'WebSocket from a dedicated worker', run: open('/', (p) => js(p, `new Worker(URL.createObjectURL(new Blob(["try { new WebSocket('${B.replace('http', 'ws')}/socket') } catch (e) {}"], { type: 'text/javascript' })))`).then(() => undefined)) },
    { name: 'fetch from a dedicated worker', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/worker` })) },
    { name: 'fetch from a shared worker', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/sharedworker` })) },
    { name: 'fetch from a service worker (while it installs)', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/serviceworker` })) },
    { name: 'WebSocket from a service worker (in its first script run)', run: async (page) => void (await page.send('Page.navigate', { url: `${A}/swsocket` })) },
    { name: 'fetch from an evaluated script', run: async (page) => void (await js(page, `fetch('${B}/eval').then(() => 1, () => 0)`)) },
    { name: 'download', run: open('/download', (p) => js(p, `document.getElementById('go').click()`).then(() => undefined)) },
    { name: 'new tab opened by the client', run: async (_page, sess) => void (await sess.newTab(`${B}/page`)) },
    { name: 'trailing-dot spelling of the host', run: async (page) => void (await page.send('Page.navigate', { url: `http://localhost.:${blocked.port}/direct` })) },
  ];

  for (const route of routes) {
    it(`${route.name}: reaches the blocked server unguarded, not at all guarded, and names the rule`, async () => {
      // Control: without rules the route does reach the server (so the guarded run can fail).
      freshTabFor = (path) => freshTab(path, false);
      let page = await freshTab('/', false);
      await route.run(page, s);
      assert.ok(await until(() => blocked.log.length > 0, 6000), `unguarded, ${route.name} should reach the server`);

      freshTabFor = (path) => freshTab(path, true);
      page = await freshTab('/', true);
      const mark = s.guard.mark();
      await route.run(page, s);
      // Until the guard stops something (or the server is reached), then a little longer for stragglers.
      await until(() => s.guard.blockedSince(mark).length > 0 || blocked.log.length > 0, 8000);
      await sleep(700);
      assert.deepEqual(blocked.log, [], `guarded, the blocked server got requests via ${route.name}: ${JSON.stringify(s.guard.blockedSince(mark))}`);
      const fired = s.guard.blockedSince(mark);
      assert.ok(fired.length > 0, `the guard reports what it stopped (log ${JSON.stringify(blocked.log)})`);
      assert.ok(fired.every((b) => b.rule === 'blocked-origin' && /matches the blocked origin/.test(b.reason)), JSON.stringify(fired));
    });
  }

  it('history back onto a page of the now-blocked origin sends nothing to it', async () => {
    const page = await freshTab('/', false);
    const nav = async (url: string) => {
      const loaded = page.waitFor('Page.loadEventFired', () => true, 10_000);
      await page.send('Page.navigate', { url });
      await loaded;
    };
    await nav(`${B}/page`);
    await nav(`${A}/`);
    settings.blockedOrigins = [`127.0.0.1:${blocked.port}`];
    await s.guard.sync();
    blocked.log.length = 0;
    const { currentIndex, entries } = await page.send('Page.getNavigationHistory');
    await page.send('Page.navigateToHistoryEntry', { entryId: entries[currentIndex - 1].id });
    await sleep(1500);
    assert.deepEqual(blocked.log, []);
  });

  it('an allow list stops resources a page pulls from another origin', async () => {
    settings.allowedOrigins = [`127.0.0.1:${allowed.port}`];
    settings.blockedOrigins = [];
    try {
      // This test is about a page's resources: the service workers earlier tests registered on A are removed
      // first, so that only the page's own requests are counted.
      const tab = await s.selectTab(s.tabs()[0].id);
      const page = await tab.session();
      await page.send('Storage.clearDataForOrigin', { origin: A, storageTypes: 'service_workers' });
      await s.guard.sync();
      const mark = s.guard.mark();
      blocked.log.length = 0;
      await page.send('Page.navigate', { url: `${A}/resources` });
      await sleep(1200);
      assert.deepEqual(blocked.log, []);
      const fired = s.guard.blockedSince(mark);
      assert.ok(fired.some((b) => b.rule === 'not-allowed-origin' && b.resourceType === 'Image'), JSON.stringify(fired));
      assert.ok(allowed.log.some((l) => l.startsWith('GET /resources')), 'the allowed page itself loads');
    } finally {
      settings.allowedOrigins = [];
    }
  });
});
