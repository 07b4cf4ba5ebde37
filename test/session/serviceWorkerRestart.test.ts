import assert from 'node:assert/strict';
import { sleep } from '../../src/session/launcher';
import type { CdpSession } from '../../src/session/cdp';
import { policyFor } from '../helpers/requestPolicy';
import { crossSite } from '../helpers/chromium';
import { blockedRoutes, routesTo, startLoggedServer } from '../helpers/loggedServers';
import { SESSION_MODES, openSession } from '../helpers/sessionModes';

async function until(fn: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!fn() && Date.now() < end) await sleep(25);
  return fn();
}

/** Wakes the page's stopped service worker with a message; its answer says it ran again and whether its fetch got out. */
async function wake(page: CdpSession): Promise<string> {
  const { result } = await page.send('Runtime.evaluate', {
    expression: `navigator.serviceWorker.ready.then((r) => new Promise((done) => {
      navigator.serviceWorker.addEventListener('message', (e) => done(e.data), { once: true });
      setTimeout(() => done('no answer in 5 s'), 5000);
      r.active.postMessage(1);
    }))`,
    awaitPromise: true,
  });
  return String(result.value);
}

// A service worker is stopped when idle and started again for an event (a message, a push, a fetch): its
// script runs again in a fresh global scope. WebSocket handshakes never reach `Fetch`, so the guard's
// barrier must be in before that script runs, on every start. Two ways this failed:
// - the tab was a second client of the worker, and its release could start the worker before the guard's
//   barrier arrived (about 1 wake in 6; tabs now leave service workers to the guard);
// - the guard already held a session to the worker (it ran when the rule came, or had run once): it started
//   again inside that session, not paused, and its WebSocket got out on every restart — or, attached at its
//   first start, it stayed paused for good and never answered again. The guard now leaves a stopped worker,
//   so each start is a new target handed over paused.
describe('session: a stopped service worker woken under a rule opens no WebSocket past the guard', function () {
  this.timeout(120_000);
  const RESTARTS = 3;
  for (const where of SESSION_MODES)
  for (const mode of ['block list', 'allow list'] as const) {
    for (const when of ['stopped before the rule', 'running when the rule came'] as const) {
      it(`${where}, ${mode}, ${when}: woken ${RESTARTS} times, the other server gets nothing and the worker still runs`, async () => {
        const blocked = await startLoggedServer(blockedRoutes());
        const allowed = await startLoggedServer(routesTo(blocked.origin, crossSite(blocked.origin)));
        const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };
        const setRule = async (on: boolean) => {
          settings.blockedOrigins = on && mode === 'block list' ? [`127.0.0.1:${blocked.port}`] : [];
          settings.allowedOrigins = on && mode === 'allow list' ? [`127.0.0.1:${allowed.port}`] : [];
          await s.guard.sync();
        };
        const s = await openSession(where, policyFor(settings));
        try {
          const page = await (await s.activeTab()).session();
          // Control: without rules the worker's script and its fetch do reach the other server.
          await page.send('Page.navigate', { url: `${allowed.origin}/swsocket` });
          assert.ok(await until(() => blocked.log.includes('UPGRADE /sw-socket') && blocked.log.includes('GET /sw-start'), 10_000), `unguarded, the worker's WebSocket and fetch should arrive: ${JSON.stringify(blocked.log)}`);
          assert.equal(await wake(page), 'awake, fetch reached');
          await page.send('ServiceWorker.enable');
          if (when === 'running when the rule came') await setRule(true);

          for (let i = 1; i <= RESTARTS; i++) {
            if (when === 'stopped before the rule') await setRule(false);
            await page.send('ServiceWorker.stopAllWorkers');
            await sleep(300);
            if (when === 'stopped before the rule') await setRule(true);
            blocked.log.length = 0;
            const mark = s.guard.mark();
            // The message starts the stopped worker: its script runs again (a socket and a fetch), then it fetches for the message.
            const answer = await wake(page);
            await until(() => s.guard.blockedSince(mark).some((b) => b.resourceType === 'WebSocket') || blocked.log.length > 0, 3000);
            await sleep(200);
            assert.deepEqual(blocked.log, [], `restart ${i}: the worker reached the server (guard: ${JSON.stringify(s.guard.blockedSince(mark))})`);
            assert.equal(answer, 'awake, fetch refused', `restart ${i}: the worker runs again and its fetch is refused`);
            const rule = mode === 'block list' ? 'blocked-origin' : 'not-allowed-origin';
            const fired = s.guard.blockedSince(mark);
            assert.ok(fired.some((b) => b.resourceType === 'WebSocket' && b.rule === rule), `restart ${i}: the guard names the WebSocket it refused: ${JSON.stringify(fired)}`);
            assert.ok(fired.some((b) => b.url.endsWith('/sw-start') && b.rule === rule), `restart ${i}: and the fetch of the worker's start: ${JSON.stringify(fired)}`);
          }
        } finally {
          await s.close();
          await allowed.close();
          await blocked.close();
        }
      });
    }
  }
});
