import assert from 'node:assert/strict';
import { sleep } from '../../src/session/launcher';
import { policyFor } from '../helpers/requestPolicy';
import { crossSite } from '../helpers/chromium';
import { blockedRoutes, routesTo, startLoggedServer } from '../helpers/loggedServers';
import { SESSION_MODES, openSession, type SessionMode } from '../helpers/sessionModes';

async function until(fn: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!fn() && Date.now() < end) await sleep(25);
  return fn();
}

/** A session in `mode` (rules empty for now) whose tab shows the allowed server's home page; two logged servers. */
async function onAllowedPage(mode: SessionMode) {
  const blocked = await startLoggedServer(blockedRoutes());
  const allowed = await startLoggedServer(routesTo(blocked.origin, crossSite(blocked.origin)));
  const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };
  const s = await openSession(mode, policyFor(settings));
  const close = async () => {
    await s.close();
    await allowed.close();
    await blocked.close();
  };
  try {
    const tab = await s.activeTab();
    const page = await tab.session();
    const loaded = page.waitFor('Page.loadEventFired', () => true, 10_000);
    await page.send('Page.navigate', { url: `${allowed.origin}/` });
    await loaded;
    return { blocked, allowed, settings, s, tab, page, close };
  } catch (e) {
    await close();
    throw e;
  }
}

const CALLS = `fetch(BLOCKED + '/fetch', { mode: 'no-cors' }).catch(() => {});
  try { new WebSocket(BLOCKED.replace(/^http/, 'ws') + '/ws').onerror = () => {}; } catch {}`;

// The request guard must hold however the session reaches its browser. Through the daemon's proxy (and the
// extension relay) there is no browser-wide auto-attach: a tab open before the rules came was never guarded
// (nothing announced it to the guard), and service workers were attached by nobody.
describe('session: the request guard in each way a session reaches its browser (real Chromium, session daemon, two loopback servers)', function () {
  this.timeout(120_000);
  for (const mode of SESSION_MODES) {
    it(`${mode}: a tab open before the rule came, and one opened after, send nothing to the blocked origin`, async () => {
      const { blocked, allowed, settings, s, tab, close } = await onAllowedPage(mode);
      try {
        const calls = CALLS.replace(/BLOCKED/g, JSON.stringify(blocked.origin));
        // Control: no rule, the page's fetch and WebSocket reach the other server.
        await tab.evaluate(calls);
        assert.ok(await until(() => blocked.log.includes('GET /fetch') && blocked.log.includes('UPGRADE /ws'), 5000), `unguarded, both arrive: ${JSON.stringify(blocked.log)}`);

        settings.blockedOrigins = [`127.0.0.1:${blocked.port}`];
        await s.applyPolicy(policyFor(settings));
        blocked.log.length = 0;
        let mark = s.guard.mark();
        await tab.evaluate(calls);
        await until(() => s.guard.blockedSince(mark).length >= 2, 3000);
        await sleep(200);
        assert.deepEqual(blocked.log, [], 'the tab open before the rule sends nothing');
        assert.deepEqual(s.guard.blockedSince(mark).map((b) => `${b.resourceType} ${b.rule}`).sort(), ['WebSocket blocked-origin', 'XHR blocked-origin'], 'the guard names both, for that tab');
        assert.ok(s.guard.blockedSince(mark, [tab.targetId]).length === 2, 'attributed to the tab');

        mark = s.guard.mark();
        const second = await s.newTab(`${allowed.origin}/resources`);
        await until(() => s.guard.blockedSince(mark).length >= 3, 3000);
        await second.evaluate(calls);
        await until(() => s.guard.blockedSince(mark).length >= 5, 3000);
        await sleep(200);
        assert.deepEqual(blocked.log, [], 'the tab opened after the rule sends nothing');
        assert.deepEqual(
          s.guard.blockedSince(mark, [second.targetId]).map((b) => b.resourceType).sort(),
          ['Image', 'Script', 'Stylesheet', 'WebSocket', 'XHR'],
        );
      } finally {
        await close();
      }
    });

    // A popup is a new page target: only a browser-wide auto-attach holds it before its first request. Through
    // the daemon's proxy the daemon holds it and hands it to the client whose tab opened it.
    it(`${mode}: a popup the tab opens onto the blocked origin sends nothing, its first request included`, async () => {
      const { blocked, allowed, settings, s, page, close } = await onAllowedPage(mode);
      try {
        const gesture = (expression: string) => page.send('Runtime.evaluate', { expression, userGesture: true });
        const byWindowOpen = (path: string) => gesture(`window.open(${JSON.stringify(blocked.origin + path)}); 1`);
        const byLink = (path: string) =>
          gesture(`{ const a = document.createElement('a'); a.href = ${JSON.stringify(blocked.origin + path)}; a.target = '_blank'; document.body.append(a); a.click(); } 1`);
        const popups = () => blocked.log.filter((l) => l.startsWith('GET /popup'));

        // Control: without a rule both popups reach the other server.
        await byWindowOpen('/popup-open-control');
        await byLink('/popup-link-control');
        assert.ok(await until(() => popups().length >= 2, 5000), `unguarded, both popups load: ${JSON.stringify(blocked.log)}`);

        settings.blockedOrigins = [`127.0.0.1:${blocked.port}`];
        await s.applyPolicy(policyFor(settings));
        blocked.log.length = 0;
        const mark = s.guard.mark();
        await byWindowOpen('/popup-open');
        await byLink('/popup-link');
        await until(() => s.guard.blockedSince(mark).filter((b) => b.resourceType === 'Document').length >= 2, 5000);
        await sleep(300);
        assert.deepEqual(popups(), [], 'neither popup reaches the blocked server');
        assert.deepEqual(
          s.guard.blockedSince(mark).filter((b) => b.resourceType === 'Document').map((b) => new URL(b.url).pathname).sort(),
          ['/popup-link', '/popup-open'],
          'the guard names both',
        );

        // A popup onto an allowed origin is let run (held at its start only until its guard is in).
        allowed.log.length = 0;
        await gesture(`window.open(${JSON.stringify(`${allowed.origin}/popup-allowed`)}); 1`);
        assert.ok(await until(() => allowed.log.includes('GET /popup-allowed'), 5000), `the allowed popup loads: ${JSON.stringify(allowed.log)}`);
        assert.ok(await until(() => s.tabs().some((t) => t.url === `${allowed.origin}/popup-allowed`), 5000), `and shows: ${JSON.stringify(s.tabs())}`);
      } finally {
        await close();
      }
    });
  }
});
