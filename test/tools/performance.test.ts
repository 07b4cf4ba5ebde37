// browser_performance on a page built to be slow in known ways, in real Chromium over CDP: a late hero text
// (LCP), a banner pushing the text down (CLS), a 250 ms busy script (a long task), a big script and a late image.
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/servers';
import { startHarness, textOf, type Harness } from '../actions/harness';

// A 1×1 PNG, late: the slowest file.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const SLOW = `<!doctype html><title>Slow</title><body style="margin:0;font:16px sans-serif">
<div id=slot></div>
<p id=intro>Short intro text.</p>
<img id=logo src="/hero.png" width=40 height=40 alt="">
<div id=hero style="position:absolute;top:300px;left:0;width:780px;font-size:40px"></div>
<script src="/big.js"></script>
<script>
const t = performance.now(); while (performance.now() - t < 250) {}
setTimeout(() => { document.getElementById('slot').innerHTML = '<div style="height:200px;background:#fc0">Sale!</div>'; }, 300);
setTimeout(() => { document.getElementById('hero').textContent = 'Our biggest summer collection ever, with free delivery on every order over twenty pounds.'; }, 450);
</script></body>`;

describe('tools: browser_performance (real Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({
      '/': SLOW,
      '/hero.png': (_q, r) =>
        void setTimeout(() => {
          r.writeHead(200, { 'content-type': 'image/png' });
          r.end(PNG);
        }, 400),
      '/big.js': (_q, r) => {
        r.writeHead(200, { 'content-type': 'text/javascript' });
        r.end(`window.big = ${JSON.stringify('x'.repeat(300_000))};`);
      },
      '/fast': '<!doctype html><title>Fast</title><h1>Hello</h1>',
    });
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('names the slow parts: the late text as LCP, the banner\'s shift, the long task, the big file', async () => {
    await h.ok('browser_navigate', { url: srv.url });
    await new Promise((r) => setTimeout(r, 800)); // the banner comes at 300 ms
    const out = await h.ok('browser_performance');
    assert.match(out, /^Performance of the page:\n<page-content id=\d+>\nURL: http:\/\/127\.0\.0\.1:\d+\/\n/);
    assert.match(out, /Load \(navigate\): first byte \d+ ms, DOMContentLoaded \d+ ms, load \d+ ms; document \d+ KB\./);
    const lcp = /Largest Contentful Paint: (\d+) ms \((good|needs improvement|poor)\), element: div#hero "Our biggest summer collection ever[^"]*"\./.exec(out);
    assert.ok(lcp, out);
    assert.ok(Number(lcp[1]) >= 450, `LCP when the late text came: ${lcp[1]}`);
    const cls = /Cumulative Layout Shift: (\d\.\d{3}) \(\w[\w ]*\) from (\d+) shifts?(; the largest moved (p#intro "Short intro text\."|img#logo hero\.png))?\./.exec(out);
    assert.ok(cls, out);
    assert.ok(Number(cls[1]) > 0.05, `the banner moved the page: ${cls[1]}`);
    const long = /Main thread: (\d+) long tasks? \(over 50 ms\), \d+ ms in all, the longest (\d+) ms; total blocking time (\d+) ms/.exec(out);
    assert.ok(long, out);
    assert.ok(Number(long[2]) >= 240, `the 250 ms loop: ${long[2]}`);
    assert.ok(Number(long[3]) >= 190);
    assert.match(out, /Largest: \/big\.js 30\d KB/);
    assert.match(out, /Slowest: [^\n]*\/hero\.png \d{3,} ms/);
  });

  it('a quick plain page grades good and says there were no long tasks', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/fast` });
    const out = await h.ok('browser_performance');
    assert.match(out, /First Contentful Paint: \d+ ms \(good\)/);
    assert.match(out, /Largest Contentful Paint: \d+ ms \(good\), element: h1 "Hello"\./);
    assert.match(out, /Cumulative Layout Shift: 0\.000 \(good\) from 0 shifts\./);
    assert.match(out, /Main thread: no long tasks/);
    assert.match(out, /Files: [01] loaded, \d+ B transferred/, 'nothing but maybe the favicon');
  });

  it('a page that replaces PerformanceObserver cannot feed it numbers; an open dialog is a clear error', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/fast` });
    await h.ok('browser_evaluate', { script: `window.PerformanceObserver = function () { throw new Error('tampered') }; performance.getEntriesByType = () => []; 1` }).catch(() => undefined);
    assert.match(await h.ok('browser_performance'), /Largest Contentful Paint: \d+ ms \(good\), element: h1 "Hello"\./);
    await h.call('browser_evaluate', { script: `setTimeout(() => alert('hi'), 0); 1` });
    await new Promise((r) => setTimeout(r, 300));
    const r = await h.call('browser_performance', {});
    assert.equal(r.code, 'DIALOG_OPEN', textOf(r));
    await h.ok('browser_handle_dialog', { accept: true });
  });
});
