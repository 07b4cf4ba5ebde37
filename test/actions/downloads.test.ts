import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { placeDownload, safeFileName } from '../../src/actions/downloadFiles';
import { CdpConnection } from '../../src/session/cdp';
import { sleep } from '../../src/session/launcher';
import { SessionManager } from '../../src/session/manager';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { NO_POLICY, type ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH, startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { toolContext } from '../helpers/tools';
import { startHarness, textOf as harnessText, type Harness } from './harness';

const textOf = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('actions: download file names (real files)', () => {
  it('a suggested name becomes one safe file name', () => {
    assert.equal(safeFileName('report.csv'), 'report.csv');
    assert.equal(safeFileName('../../.bashrc'), '.._.._.bashrc');
    assert.equal(safeFileName('a\\b/c\u0000d\ne'), 'a_b_c_d_e');
    assert.equal(safeFileName('..'), 'download');
    assert.equal(safeFileName('   '), 'download');
    const long = safeFileName(`${'x'.repeat(300)}.tar.gz`);
    assert.equal(long.length, 200);
    assert.ok(long.endsWith('x.gz'), long);
  });

  it('places a file under its name, numbering the name when taken, never replacing a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ba-place-'));
    const land = mkdtempSync(join(tmpdir(), 'ba-land-'));
    const put = (guid: string, body: string) => {
      writeFileSync(join(land, guid), body);
      return join(land, guid);
    };
    assert.equal(placeDownload(put('g1', 'one'), dir, 'r.txt'), join(dir, 'r.txt'));
    assert.equal(placeDownload(put('g2', 'two'), dir, 'r.txt'), join(dir, 'r (1).txt'));
    assert.equal(placeDownload(put('g3', 'three'), dir, 'r.txt'), join(dir, 'r (2).txt'));
    assert.equal(placeDownload(put('g4', 'four'), dir, 'README'), join(dir, 'README'));
    assert.deepEqual(readdirSync(dir).sort(), ['README', 'r (1).txt', 'r (2).txt', 'r.txt']);
    assert.equal(readFileSync(join(dir, 'r.txt'), 'utf8'), 'one');
    assert.equal(readFileSync(join(dir, 'r (2).txt'), 'utf8'), 'three');
    assert.deepEqual(readdirSync(land), [], 'the landed files were moved');
    // Already in place under its name: left as it is.
    assert.equal(placeDownload(join(dir, 'README'), dir, 'README'), join(dir, 'README'));
    assert.throws(() => placeDownload(join(land, 'gone'), dir, 'x.txt'), /ENOENT/);
  });
});

describe('actions: downloads in a browser we attached to (a person\'s Chromium)', function () {
  this.timeout(90_000);
  let ext: ExternalBrowser;
  let person: CdpConnection;
  let srv: TestServer;
  let sessions: SessionManager;

  before(async () => {
    srv = await startServer({
      '/file': (req, res) => {
        const name = new URL(req.url!, 'http://x').searchParams.get('name')!;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="${name}"` });
        res.end(name);
      },
      '/page': '<title>files</title><a id=mine href="/file?name=agent.txt">get</a>',
    });
    ext = await startExternalChromium();
    person = await CdpConnection.connect(ext.wsEndpoint);
  });
  after(async () => {
    await sessions?.close();
    person?.close();
    await ext?.stop();
    await srv?.close();
  });

  it('the agent hears only of its own downloads; a person\'s file goes to their downloads folder under its name', async () => {
    // The person's own downloads folder (where Chrome saves by default): a folder of the test's own.
    const theirs = mkdtempSync(join(tmpdir(), 'ba-person-dl-'));
    const saved = process.env.XDG_DOWNLOAD_DIR;
    process.env.XDG_DOWNLOAD_DIR = theirs;
    after(() => (saved === undefined ? delete process.env.XDG_DOWNLOAD_DIR : (process.env.XDG_DOWNLOAD_DIR = saved)));
    const { targetId } = await person.send('Target.createTarget', { url: `${srv.origin}/page` });
    sessions = new SessionManager(() => ({ mode: 'attach', launch: TEST_LAUNCH, attach: { endpoint: ext.wsEndpoint }, attachTab: 'new' }));
    const ctx = { ...toolContext(sessions, { maxWaitMs: 5000 }), guard: NO_POLICY }; // the tools under test, not the policy
    const dir = ctx.settings.downloadsDir;
    const run = (name: string, input: unknown) => runTool(findTool(name)!, input, ctx);
    await run('browser_navigate', { url: `${srv.origin}/page` });

    // The person downloads in their own tab (the browser now saves into our folder, each file under its guid).
    const { sessionId } = await person.send('Target.attachToTarget', { targetId, flatten: true });
    await person.send('Runtime.evaluate', { expression: `location.href = '/file?name=theirs.txt'` }, sessionId);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !readdirSync(theirs).includes('theirs.txt')) await sleep(100);
    assert.deepEqual(readdirSync(theirs), ['theirs.txt'], 'the person\'s file is in their folder, named, not left under its guid');
    assert.equal(readFileSync(join(theirs, 'theirs.txt'), 'utf8'), 'theirs.txt');
    assert.deepEqual(readdirSync(dir), [], 'and not in ours');

    const snap = textOf(await run('browser_snapshot', {}));
    assert.doesNotMatch(snap, /Download|theirs/, 'the agent is not told of the person\'s download');
    const ref = /\[(\w+)\] link "get"/.exec(snap)![1];
    const r = textOf(await run('browser_click', { ref }));
    assert.match(r, /Downloaded <page-content id=(\w+)>agent\.txt<\/page-content id=\1> \(9 bytes\)/, r);
    assert.deepEqual(readdirSync(dir), ['agent.txt']);
    assert.equal(readFileSync(join(dir, 'agent.txt'), 'utf8'), 'agent.txt');
  });
});

describe('actions: a server that names its download to escape the folder (real Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  const names: Record<string, string> = {
    plain: 'attachment; filename="../../escape.txt"',
    encoded: "attachment; filename*=UTF-8''..%2F..%2Fescape-encoded.txt",
    backslash: 'attachment; filename="..\\..\\escape-backslash.txt"',
    long: `attachment; filename="${'n'.repeat(300)}.txt"`,
  };
  before(async () => {
    const routes: Record<string, string | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void)> = {};
    for (const [k, cd] of Object.entries(names)) {
      routes[`/${k}`] = `<title>${k}</title><a href="/${k}.bin">get</a>`;
      routes[`/${k}.bin`] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': cd });
        res.end(k);
      };
    }
    srv = await startServer(routes);
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('every file lands inside the downloads folder, under one plain name, with its bytes', async () => {
    const escaped = () => [join(h.downloadsDir, '..'), join(h.downloadsDir, '..', '..')].flatMap((d) => readdirSync(d).filter((f) => /escape|nnnnnnnnnn/.test(f)));
    for (const k of Object.keys(names)) {
      await h.ok('browser_navigate', { url: `${srv.origin}/${k}` });
      const snap = await h.ok('browser_snapshot');
      const ref = /\[(\w+)\] link "get"/.exec(snap)![1];
      const r = harnessText(await h.call('browser_click', { ref }));
      assert.match(r, /Downloaded /, `${k}: ${r}`);
    }
    const files = readdirSync(h.downloadsDir);
    assert.equal(files.length, Object.keys(names).length, files.join(' | '));
    for (const f of files) {
      assert.ok(!/[/\\]/.test(f) && f.length <= 200, f);
      assert.ok(Object.keys(names).includes(readFileSync(join(h.downloadsDir, f), 'utf8')), `${f} holds one of the bodies`);
    }
    assert.deepEqual(escaped(), [], 'nothing was written beside the folder or above it');
  });
});
