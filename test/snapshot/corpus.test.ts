import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserSession } from '../../src/session/browserSession';
import { takeSnapshot } from '../../src/snapshot';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

const CORPUS = join(__dirname, '../../../../shared/corpus/pages');

/** Every saved real page snapshots without error; dialogs on load (one page alerts) are dismissed. */
describe('snapshot: real-page corpus', function () {
  this.timeout(600_000);
  let s: BrowserSession;
  let srv: TestServer;
  let pages: string[] = [];
  before(async () => {
    pages = readdirSync(CORPUS).filter((f) => f.endsWith('.html')).sort();
    const routes: Record<string, string> = {};
    for (const p of pages) routes['/' + p] = readFileSync(join(CORPUS, p), 'utf8');
    srv = await startServer(routes);
    s = await BrowserSession.launch(TEST_LAUNCH);
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('snapshots every corpus page', async () => {
    assert.ok(pages.length >= 90, `corpus has ${pages.length} pages`);
    const tab = await s.activeTab();
    const session = await tab.session();
    tab.on('dialog', () => void session.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => {}));
    const failures: string[] = [];
    for (const p of pages) {
      try {
        const loaded = session.waitFor('Page.loadEventFired', () => true, 20_000).catch(() => undefined);
        await session.send('Page.navigate', { url: srv.url + p });
        await loaded;
        for (let i = 0; i < 50 && tab.dialog; i++) await new Promise((r) => setTimeout(r, 20));
        const snap = await takeSnapshot(tab);
        assert.match(snap, /^URL: http:\/\/127\.0\.0\.1:\d+\//);
        assert.match(snap, /interactive elements/);
        await takeSnapshot(tab, { layer: 'summary' });
      } catch (e) {
        failures.push(`${p}: ${(e as Error).message}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});
