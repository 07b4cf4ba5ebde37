import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveViewHtml } from '../../src/vscode/liveViewHtml';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * The editor-area live view's page (src/vscode/liveViewHtml.ts with the built dist/media/liveView.js) in real Chromium
 * under its CSP: the messages the extension posts to it (frame, state, highlight) and what the person sees. The
 * outline of the acted element is drawn by the code the chat panel's live view uses (media/highlight.ts).
 */
const ROOT = process.cwd();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'agent');

const SETUP = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  const theme = { 'foreground': '#cccccc', 'focusBorder': '#0078d4', 'panel-border': '#2b2b2b', 'badge-background': '#616161', 'badge-foreground': '#f8f8f8',
    'descriptionForeground': '#9d9d9d', 'textLink-foreground': '#4daafc', 'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace' };
  document.addEventListener('DOMContentLoaded', () => { document.body.style.background = '#1f1f1f'; for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty('--vscode-' + k, v); });
`;

describe('live view in the editor area: its page in real Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: BrowserSession;
  let tab: Tab;
  /** A real page's picture, 800 CSS px wide, as the screencast sends it. */
  let frame: { type: 'frame'; data: string; width: number; height: number };

  before(async () => {
    server = await startServer({
      '/liveView.js': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(readFileSync(join(ROOT, 'dist', 'media', 'liveView.js')));
      },
    });
    server.route('/', liveViewHtml(server.origin, `${server.origin}/liveView.js`));
    browser = await BrowserSession.launch(TEST_LAUNCH);
    const page = await browser.newTab('data:text/html,<body style="margin:0;font:32px sans-serif;background:%23fff"><h1>Shop</h1><button style="position:absolute;left:100px;top:200px;width:120px;height:40px">Buy</button>');
    const ps = await page.session();
    await ps.send('Emulation.setDeviceMetricsOverride', { width: 800, height: 600, deviceScaleFactor: 1, mobile: false });
    await new Promise((r) => setTimeout(r, 300));
    const jpeg = await ps.send('Page.captureScreenshot', { format: 'jpeg', quality: 50 });
    frame = { type: 'frame', data: jpeg.data, width: 800, height: 600 };
    await browser.closeTab(page.targetId);
    tab = await browser.activeTab();
    const s = await tab.session();
    await s.send('Page.addScriptToEvaluateOnNewDocument', { source: SETUP });
    await s.send('Emulation.setDeviceMetricsOverride', { width: 416, height: 500, deviceScaleFactor: 1, mobile: false });
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url: server.url });
    await loaded;
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const post = (m: unknown) => tab.evaluate(`window.postMessage(${JSON.stringify(m)}, '*'); new Promise((r) => setTimeout(r, 200))`);
  const q = <T>(expr: string) => tab.evaluate<T>(expr);
  const outline = () => q<{ hidden: boolean; left: number; top: number; width: number; height: number; title: string }>(
    `(() => { const o = document.getElementById('highlight'), img = document.getElementById('live-frame'), a = o.getBoundingClientRect(), b = img.getBoundingClientRect();
      return { hidden: o.hidden, left: a.left - b.left, top: a.top - b.top, width: a.width, height: a.height, title: o.title }; })()`,
  );

  it('outlines the acted element at its place on the scaled picture, and takes the outline away after the step', async () => {
    await post({ type: 'state', live: true, label: 'Live', note: '', url: 'https://shop.example/checkout' });
    await post(frame);
    // No element yet: nothing outlined.
    assert.equal((await outline()).hidden, true);
    await post({ type: 'highlight', box: { x: 100, y: 200, width: 120, height: 40 }, label: 'browser_click' });
    const o = await outline();
    const scale = await q<number>(`document.getElementById('live-frame').clientWidth / 800`);
    assert.ok(scale > 0.3 && scale < 1, `the picture is shown smaller than the page (${scale})`);
    assert.equal(o.hidden, false);
    assert.equal(o.title, 'browser_click');
    // It sits on the button's place, scaled like the picture (1 px for the picture's border; its own 2 px border
    // lies around the box).
    const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 2, `${what}: ${a} vs ${b}`);
    near(o.left, 100 * scale + 1, 'left');
    near(o.top, 200 * scale + 1, 'top');
    near(o.width, 120 * scale + 4, 'width');
    near(o.height, 40 * scale + 4, 'height');
    const { data } = await (await tab.session()).send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(join(ARTIFACTS, 'live-view-editor-outline.png'), Buffer.from(data, 'base64'));
    // The step ended: the outline goes.
    await post({ type: 'highlight' });
    assert.equal((await outline()).hidden, true);
    assert.deepEqual(await q<string[]>('window.__violations'), [], 'nothing blocked by the CSP');
  });

  it('a box before any picture, a malformed message, or a browser that went away outline nothing; page text stays text', async () => {
    await post({ type: 'highlight', box: { x: 'a', y: 1, width: 1, height: 1 } });
    assert.equal((await outline()).hidden, true, 'a malformed box');
    await post({ type: 'highlight', box: { x: 10, y: 10, width: 50, height: 20 }, label: 'browser_type' });
    assert.equal((await outline()).hidden, false);
    await post({ type: 'state', live: false, label: 'Disconnected', note: 'Not live: the browser closed.', url: '<img src=x onerror=alert(1)>' });
    assert.equal((await outline()).hidden, true, 'no outline over a stale picture');
    assert.equal(await q<string>(`document.getElementById('url').textContent`), '<img src=x onerror=alert(1)>');
    assert.equal(await q<number>(`document.querySelectorAll('#url *').length`), 0);
    assert.equal(await q<string>(`document.getElementById('state').textContent`), 'Disconnected');
  });
});
