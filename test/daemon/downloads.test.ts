import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../../src/session/launcher';
import { daemonEnv, HEADLESS_ARGS, spawnMcp, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * Downloads in one browser shared by two MCP clients through the session daemon: `Browser.setDownloadBehavior`
 * is browser-wide (the client that set it last got every file), and when that client leaves Chrome falls back
 * to its default folder. Each client's files must land in its own folder, under their own names, whoever set
 * the behaviour last, and the other client must not hear of them.
 */
const files = (dir: string) => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};

const refOf = (snapshot: string, name: string) => {
  const m = new RegExp(`\\[([\\w:]+)\\] link "${name}"`).exec(snapshot);
  if (!m) throw new Error(`no link "${name}" in\n${snapshot}`);
  return m[1];
};

for (const transport of ['direct', 'proxy'] as const)
describe(`daemon (${transport}): each client's downloads land in its own folder (real daemon, two MCP clients, one Chromium)`, function () {
  this.timeout(180_000);
  let srv: TestServer;
  let a: McpProc;
  let b: McpProc | undefined;
  const work = mkdtempSync(join(tmpdir(), 'ba-dl-'));
  const dirA = join(work, 'a');
  const dirB = join(work, 'b');
  // Chrome's own default folder when no client has set one: $HOME/Downloads of the daemon's browser.
  const home = join(work, 'home');
  mkdirSync(home);
  const env = { ...daemonEnv(1500, transport), HOME: home, XDG_DOWNLOAD_DIR: join(home, 'Downloads') };

  before(async () => {
    srv = await startServer({
      // A navigation that turns into a download (Content-Disposition), and a download link in an iframe.
      '/file': (req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="${q.get('name')}"` });
        res.end(q.get('body'));
      },
      '/page': (req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams;
        const file = `/file?name=${encodeURIComponent(q.get('name')!)}&body=${encodeURIComponent(q.get('body')!)}`;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<title>files</title><a href="${file}">get</a> <a href="${file}" target=_blank>get in a new tab</a><iframe srcdoc='<a href="${file}" download>get in frame</a>'></iframe>`);
      },
    });
    a = await spawnMcp(env, [...HEADLESS_ARGS, '--downloads-dir', dirA], 'a');
    await a.call('browser_navigate', { url: `${srv.origin}/page?name=report.txt&body=A1` });
    // B joins second, so B's folder is the one the browser was pointed at last.
    b = await spawnMcp(env, [...HEADLESS_ARGS, '--downloads-dir', dirB], 'b');
    await b.call('browser_navigate', { url: `${srv.origin}/page?name=report.txt&body=B1` });
  });

  after(async () => {
    await a?.close().catch(() => {});
    await b?.close().catch(() => {});
    await srv?.close();
  });

  async function download(c: McpProc, link: string, name: string, body: string) {
    await c.call('browser_navigate', { url: `${srv.origin}/page?name=${encodeURIComponent(name)}&body=${encodeURIComponent(body)}` });
    const snap = await c.call('browser_snapshot');
    return c.call('browser_click', { ref: refOf(snap.text, link) });
  }

  it('a file lands in the folder of the client whose page downloaded it, named, and only that client hears of it', async () => {
    const r = await download(a, 'get', 'report.txt', 'A1');
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, new RegExp(`Downloaded .*report\\.txt.* \\(2 bytes\\) to .*${join(dirA, 'report.txt').replace(/[.()]/g, '\\$&')}`), r.text);
    assert.deepEqual(files(dirA), ['report.txt']);
    assert.equal(readFileSync(join(dirA, 'report.txt'), 'utf8'), 'A1');
    assert.deepEqual(files(dirB), [], 'nothing (not even a file named by its guid) in the other client’s folder');

    // B's next result does not report A's download; B's own download from an iframe lands in B's folder.
    const bSnap = await b!.call('browser_snapshot');
    assert.doesNotMatch(bSnap.text, /Download/);
    const rb = await download(b!, 'get in frame', 'report.txt', 'B1');
    assert.match(rb.text, /Downloaded .*report\.txt/, rb.text);
    assert.deepEqual(files(dirB), ['report.txt']);
    assert.equal(readFileSync(join(dirB, 'report.txt'), 'utf8'), 'B1');
    assert.deepEqual(files(dirA), ['report.txt'], 'A’s folder is unchanged');
    const aSnap = await a.call('browser_snapshot');
    assert.doesNotMatch(aSnap.text, /Download/, 'A does not hear of B’s download');
  });

  it('a second file of the same name never replaces the first', async () => {
    const r = await download(a, 'get in frame', 'report.txt', 'A2');
    assert.match(r.text, /Downloaded .*report \(1\)\.txt/, r.text);
    assert.deepEqual(files(dirA), ['report (1).txt', 'report.txt']);
    assert.equal(readFileSync(join(dirA, 'report.txt'), 'utf8'), 'A1');
    assert.equal(readFileSync(join(dirA, 'report (1).txt'), 'utf8'), 'A2');
  });

  it('a download a new tab starts (a target=_blank link to a file) is the opener\'s client\'s too', async () => {
    const r = await download(a, 'get in a new tab', 'popup.txt', 'A4');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !files(dirA).includes('popup.txt')) await sleep(100);
    assert.ok(files(dirA).includes('popup.txt'), `in A's folder: ${files(dirA).join(', ')}; result: ${r.text}`);
    assert.equal(readFileSync(join(dirA, 'popup.txt'), 'utf8'), 'A4');
    assert.deepEqual(files(dirB), ['report.txt']);
  });

  it('after the client that set the folder last leaves, the other client’s files still land in its own folder', async () => {
    await b!.close();
    b = undefined;
    await sleep(1000); // the daemon ends B's session; Chrome then drops the download folder B set
    const r = await download(a, 'get', 'after.txt', 'A3');
    assert.match(r.text, /Downloaded .*after\.txt/, r.text);
    assert.deepEqual(files(dirA), ['after.txt', 'popup.txt', 'report (1).txt', 'report.txt']);
    assert.deepEqual(files(join(home, 'Downloads')), [], 'nothing in Chrome’s default folder');
    assert.deepEqual(files(dirB), ['report.txt']);
  });
});
