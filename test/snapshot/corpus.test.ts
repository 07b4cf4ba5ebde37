import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import { TEST_LAUNCH } from '../helpers/chromium';
import { corpusOrSkip, type Corpus } from '../helpers/corpus';
import { pageRoutes } from '../helpers/pages';
import { startServer, type TestServer } from '../helpers/servers';
import { snapshotEachPage } from './pageSet';

/**
 * Every page of the shared corpus (98 saved public pages, outside the repository) snapshots without
 * error; dialogs on load (one page alerts) are answered. Without the corpus: skipped with the reason.
 */
describe('snapshot: shared real-page corpus', function () {
  this.timeout(600_000);
  let corpus: Corpus;
  let s: BrowserSession;
  let srv: TestServer;
  before(async function () {
    corpus = corpusOrSkip(this);
    srv = await startServer(pageRoutes(corpus.dir, corpus.pages));
    s = await BrowserSession.launch(TEST_LAUNCH);
  });
  after(async () => {
    await s?.close();
    await srv?.close();
  });

  it('snapshots every corpus page', async () => {
    assert.ok(corpus.pages.length >= 90, `the corpus at ${corpus.dir} has only ${corpus.pages.length} pages`);
    assert.deepEqual(await snapshotEachPage(await s.activeTab(), srv.url, corpus.pages), []);
  });
});
