import assert from 'node:assert/strict';
import { checkRequestOrigin } from '../../src/safety/origins';
import { BrowserSession } from '../../src/session/browserSession';
import type { CdpSession } from '../../src/session/cdp';
import { sleep } from '../../src/session/launcher';
import { startLoggedServer, type LoggedServer } from '../helpers/loggedServers';
import { policyFor } from '../helpers/requestPolicy';

/**
 * Each spelling of a host the issue names (LOCALHOST, localhost., 127.1, 0x7f.0.0.1, 2130706433,
 * [::1], IDN vs punycode) against a real server: without rules the navigation reaches it; with the
 * block list written in another spelling — odd or canonical — the policy refuses it and the
 * session's request guard stops it before the server sees a request.
 */
describe('session: every spelling of a blocked host is stopped at the request (real servers on 127.0.0.1 and ::1)', function () {
  this.timeout(120_000);
  let v4: LoggedServer;
  let v6: LoggedServer;
  let home: LoggedServer;
  let s: BrowserSession;
  let page: CdpSession;
  const settings = { blockedOrigins: [] as string[], allowedOrigins: [] as string[] };
  const reached = () => v4.log.length + v6.log.length;

  before(async () => {
    const html = '<title>blocked</title><p>blocked page</p>';
    v4 = await startLoggedServer({ '/': html });
    v6 = await startLoggedServer({ '/': html }, '::1');
    home = await startLoggedServer({ '/': '<title>home</title>' });
    // The trailing-dot and IDN spellings must resolve, so the unguarded control can reach the server.
    const resolver = '--host-resolver-rules=MAP localhost. 127.0.0.1, MAP xn--bcher-kva.test 127.0.0.1, MAP xn--bcher-kva.test. 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE ::1';
    s = await BrowserSession.launch({ headless: true, args: [resolver, '--disable-quic'], requestPolicy: policyFor(settings) });
    page = await (await s.activeTab()).session();
  });
  after(async () => {
    await s?.close();
    for (const x of [v4, v6, home]) await x?.close();
  });

  const P = () => v4.port;
  const P6 = () => v6.port;
  const spellings = (): string[] => [
    `http://LOCALHOST:${P()}/`,
    `http://localhost.:${P()}/`,
    `http://127.1:${P()}/`,
    `http://0x7f.0.0.1:${P()}/`,
    `http://2130706433:${P()}/`,
    `http://0177.0.0.1:${P()}/`,
    `http://user:pw@127.0.0.1:${P()}/`,
    `http://[::1]:${P6()}/`,
    `http://[0:0:0:0:0:0:0:1]:${P6()}/`,
    `http://bücher.test:${P()}/`,
    `http://BÜCHER.test.:${P()}/`,
    `http://xn--bcher-kva.test:${P()}/`,
  ];
  const ruleSets = (): Record<string, string[]> => ({
    'rules in odd spellings': [`LOCALHOST.:${P()}`, `0x7f.1:${P()}`, `[0::1]:${P6()}`, `BÜCHER.test:${P()}`],
    'rules in canonical spellings': [`localhost:${P()}`, `127.0.0.1:${P()}`, `::1`, `xn--bcher-kva.test`],
  });

  async function go(url: string): Promise<void> {
    await page.send('Page.navigate', { url: `${home.origin}/` });
    await sleep(200);
    v4.log.length = 0;
    v6.log.length = 0;
    await page.send('Page.navigate', { url }).catch(() => undefined);
  }

  async function until(fn: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end && !fn()) await sleep(25);
    return fn();
  }

  it('the spellings reach the servers without rules (so the guarded runs can fail)', async () => {
    settings.blockedOrigins = [];
    await s.guard.sync();
    for (const url of spellings()) {
      await go(url);
      assert.ok(await until(() => reached() > 0, 5000), `${url} should reach a server unguarded`);
    }
  });

  for (const name of ['rules in odd spellings', 'rules in canonical spellings']) {
    it(`${name}: the policy refuses each spelling and the blocked servers get nothing`, async () => {
      const rules = ruleSets()[name];
      settings.blockedOrigins = rules;
      await s.guard.sync();
      try {
        for (const url of spellings()) {
          assert.equal(checkRequestOrigin(url, { blockedOrigins: rules, allowedOrigins: [] }).rule, 'blocked-origin', `the policy matches ${url} with ${rules.join(', ')}`);
          const mark = s.guard.mark();
          await go(url);
          await until(() => s.guard.blockedSince(mark).length > 0 || reached() > 0, 5000);
          await sleep(300);
          assert.equal(reached(), 0, `${url} reached the server despite ${rules.join(', ')}: ${[...v4.log, ...v6.log].join(', ')}`);
          const fired = s.guard.blockedSince(mark);
          assert.ok(fired.some((b) => b.navigation && b.rule === 'blocked-origin'), `the guard names the rule for ${url}: ${JSON.stringify(fired)}`);
        }
      } finally {
        settings.blockedOrigins = [];
        await s.guard.sync();
      }
    });
  }
});
