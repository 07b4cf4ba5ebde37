// browser_resize on a responsive page in real Chromium over CDP: the page's media queries, touch, snapshot,
// screenshot and clicks all follow the new viewport; it lasts across navigations; reset brings the window's size back.
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, startHarness, textOf, type Harness } from '../actions/harness';

const RESPONSIVE = `<!doctype html><title>Shop</title><meta name=viewport content="width=device-width">
<style>#narrow { display: none } @media (max-width: 500px) { #wide { display: none } #narrow { display: block } }</style>
<nav id=wide><a href="/a">Women</a> <a href="/b">Men</a> <a href="/c">Kids</a></nav>
<button id=narrow onclick="document.getElementById('out').textContent = 'menu open'">Menu</button>
<p id=out></p>`;

function pngSize(b64: string): { width: number; height: number } {
  const buf = Buffer.from(b64, 'base64');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('tools: browser_resize (real Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/': RESPONSIVE, '/two': RESPONSIVE.replace('Shop', 'Two') });
    h = await startHarness();
    await h.ok('browser_navigate', { url: srv.url });
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('a phone-sized viewport: the page lays out for it, sees touch, and snapshot, screenshot and click follow', async () => {
    const wide = await evalPage<number>(h, 'innerWidth');
    assert.ok(wide > 500, `starts wide: ${wide}`);
    assert.match(await h.ok('browser_snapshot'), /link "Women"/);

    const r = await h.ok('browser_resize', { width: 390, height: 844, mobile: true });
    assert.equal(r, 'Viewport set to 390×844, mobile with touch: the page now sees 390×844 CSS pixels and a touch screen. Take a new snapshot or screenshot: the layout may have changed.');
    assert.equal(await evalPage<boolean>(h, `matchMedia('(max-width: 500px)').matches && navigator.maxTouchPoints > 0`), true);
    const snap = await h.ok('browser_snapshot');
    assert.doesNotMatch(snap, /link "Women"/, 'the wide menu is hidden by the media query');
    const ref = /\[(\d+)\] button "Menu"/.exec(snap)?.[1];
    assert.ok(ref, snap);
    await h.ok('browser_click', { ref });
    assert.equal(await evalPage<string>(h, `document.getElementById('out').textContent`), 'menu open');
    const shot = await h.call('browser_screenshot', {});
    const img = shot.content.find((c) => c.type === 'image') as { data: string } | undefined;
    assert.ok(img, textOf(shot));
    const size = pngSize(img.data);
    const dpr = await evalPage<number>(h, 'devicePixelRatio');
    assert.deepEqual(size, { width: Math.round(390 * dpr), height: Math.round(844 * dpr) });
  });

  it('lasts across navigations; reset brings back the window\'s size and no touch', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/two` });
    assert.equal(await evalPage<number>(h, 'innerWidth'), 390);
    const r = await h.ok('browser_resize', { reset: true });
    assert.match(r, /^Viewport set to the window's own size: the page now sees \d+×\d+ CSS pixels\. /);
    assert.ok((await evalPage<number>(h, 'innerWidth')) > 500);
    assert.equal(await evalPage<number>(h, 'navigator.maxTouchPoints'), 0);
    assert.match(await h.ok('browser_snapshot'), /link "Women"/);
  });

  it('a desktop size without mobile; bad input is a clear error and changes nothing', async () => {
    assert.match(await h.ok('browser_resize', { width: 1024, height: 700 }), /^Viewport set to 1024×700: the page now sees 1024×700 CSS pixels\. /);
    for (const input of [{ width: 390 }, { reset: true, width: 390 }, { width: 50, height: 50 }, {}]) {
      const r = await h.call('browser_resize', input);
      assert.equal(r.code, 'INVALID_INPUT', JSON.stringify(input));
    }
    assert.equal(await evalPage<number>(h, 'innerWidth'), 1024);
    await h.ok('browser_resize', { reset: true });
  });
});
