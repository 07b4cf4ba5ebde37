import assert from 'node:assert/strict';
import { allTools } from '../../src/tools/registry';
import { sleep } from '../../src/session/launcher';
import { SessionManager } from '../../src/session/manager';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, startHarness, textOf, type Harness } from '../actions/harness';

function pngSize(b64: string): { width: number; height: number } {
  const buf = Buffer.from(b64, 'base64');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

const article = `<!doctype html><title>Article page</title><body>
<nav><a href="/a">Home</a> <a href="/b">About</a> <a href="javascript:void 0">noop</a></nav>
<article><h1>The heading</h1>${'<p>This is a long paragraph of article text that Readability should keep as the main content of the page. '.repeat(3)}</p>
<p>Second paragraph with <strong>bold</strong> and a <a href="/more">link</a>.</p>${'<p>More body text to pass the threshold of the readability algorithm easily. </p>'.repeat(6)}</article>
<table><caption>Prices</caption><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Tea</td><td>3</td></tr><tr><td>Cake</td><td>5</td></tr></tbody></table>
<footer>Footer noise</footer></body>`;

/** A valid input for each tool, for the preview test. */
function sampleInput(name: string): unknown {
  const samples: Record<string, unknown> = {
    browser_navigate: { url: 'https://example.com' },
    browser_find: { query: 'x' },
    browser_element_details: { refs: ['1'] },
    browser_click: { ref: '1' },
    browser_type: { ref: '1', text: 'x' },
    browser_fill_form: { fields: [{ ref: '1', value: 'x' }] },
    browser_select_option: { ref: '1', values: ['a'] },
    browser_hover: { x: 1, y: 1 },
    browser_drag: { fromRef: '1', toRef: '2' },
    browser_press_key: { key: 'Enter' },
    browser_upload_file: { paths: ['/tmp/x'] },
    browser_handle_dialog: { accept: true },
    browser_wait: { timeMs: 1 },
    browser_tabs: { action: 'list' },
    browser_resize: { width: 390, height: 844 },
    browser_evaluate: { script: '1' },
    browser_skills_search: { query: 'x' },
    browser_run_script: { script: 'return 1;' },
  };
  return samples[name] ?? {};
}

describe('tools: every tool through runTool, and bad input', function () {
  this.timeout(90_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({
      '/': '<title>Home</title><p>home page</p>',
      '/two': '<title>Two</title><p>second page</p>',
      '/article': article,
      '/tall': `<title>Tall</title><body style="margin:0"><div style="height:5000px;background:linear-gradient(red,blue)">tall</div></body>`,
      '/late': `<title>Late</title><script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p id=late>Arrived late</p>'), 300)</script><body><p id=gone>Going away</p></body>`,
    });
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });

  it('registers exactly the public tool names, each with a preview', () => {
    assert.deepEqual(allTools.map((t) => t.name).sort(), [
      'browser_click', 'browser_close', 'browser_console_messages', 'browser_drag', 'browser_element_details', 'browser_evaluate', 'browser_extract', 'browser_fill_form',
      'browser_find', 'browser_handle_dialog', 'browser_hover', 'browser_navigate', 'browser_navigate_back', 'browser_navigate_forward',
      'browser_network_requests', 'browser_performance', 'browser_press_key', 'browser_reload', 'browser_resize', 'browser_run_script', 'browser_screenshot', 'browser_scroll', 'browser_select_option', 'browser_skills_search', 'browser_snapshot', 'browser_tabs',
      'browser_type', 'browser_upload_file', 'browser_wait',
    ]);
    for (const t of allTools) assert.ok(t.preview, `${t.name} has a preview`);
  });

  it('previews are side-effect free: they never start a browser', async () => {
    const idle = new SessionManager(() => ({ mode: 'launch', launch: {} }));
    const ctx = { ...h.ctx, sessions: idle, browser: () => idle.ensure(), tab: async () => (await idle.ensure()).activeTab() };
    for (const t of allTools) {
      const p = await t.preview!(t.schema.parse(sampleInput(t.name)), ctx);
      assert.ok(p.message.length > 3, t.name);
    }
    const nav = await allTools.find((t) => t.name === 'browser_navigate')!.preview!({ url: 'example.com/x' }, ctx);
    assert.equal(nav.destination, 'https://example.com/x');
    assert.equal(nav.message, 'Opening https://example.com/x');
    assert.equal(idle.current, undefined);
    assert.equal(idle.status.state, 'none');
  });

  it('navigates, goes back and forward, reloads', async () => {
    assert.match(await h.ok('browser_navigate', { url: srv.url }), /\nTitle: Home\n/);
    // Each thing once: the URL the model asked for is not repeated, the title is named in the one fence.
    const two = await h.ok('browser_navigate', { url: `${srv.origin}/two` });
    assert.match(two, /^Navigated to http:\/\/127\.0\.0\.1:\d+\/two\.\n[\s\S]*<page-content id=(\d+)>\nTitle: Two\n<\/page-content id=\1>$/);
    assert.doesNotMatch(two, /URL: |Page: /);
    assert.equal(two.match(/<page-content id=/g)?.length, 1, 'one fence');
    // Back lands on another URL: it is named once, relative to where the tab was.
    assert.match(await h.ok('browser_navigate_back'), /^Went back\.\n[\s\S]*\nURL: \/\nTitle: Home\n/);
    assert.match(await h.ok('browser_navigate_forward'), /\nURL: \/two\nTitle: Two\n/);
    assert.match(await h.ok('browser_reload'), /^Reloaded the page\./);
    await h.ok('browser_navigate', { url: 'about:blank' });
    assert.equal((await h.call('browser_navigate_back')).isError, undefined);
  });

  it('refuses other schemes and invalid URLs with clear errors, and reports failed navigations', async () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'chrome://settings']) {
      const r = await h.call('browser_navigate', { url });
      assert.equal(r.code, 'BLOCKED_BY_POLICY', url);
      assert.match(textOf(r), /not allowed/);
    }
    assert.equal((await h.call('browser_navigate', { url: 'http://exa mple.com' })).code, 'INVALID_INPUT');
    assert.equal((await h.call('browser_navigate', { url: '' })).code, 'INVALID_INPUT');
    const r = await h.call('browser_navigate', { url: 'http://no-such-host.invalid/' });
    assert.equal(r.code, 'NAVIGATION_FAILED');
    assert.match(textOf(r), /ERR_NAME_NOT_RESOLVED/);
    h.ctx.settings.allowedSchemes = ['data'];
    try {
      const d = await h.call('browser_navigate', { url: 'data:text/html,<title>D</title>' });
      assert.equal(d.isError, undefined, textOf(d));
    } finally {
      h.ctx.settings.allowedSchemes = [];
    }
    // bare host names get https:// like an address bar
    const bare = await h.call('browser_navigate', { url: `127.0.0.1:${srv.port}/two` });
    assert.match(textOf(bare), /https:\/\/127\.0\.0\.1:\d+\/two/);
  });

  it('turns wrong argument types into a readable message', async () => {
    const r = await h.call('browser_click', { x: 'left', y: 3 });
    assert.equal(r.code, 'INVALID_INPUT');
    assert.match(textOf(r), /Invalid arguments for browser_click: x: .*expected number/);
    const huge = await h.call('browser_type', { text: 'x'.repeat(100_001) });
    assert.equal(huge.code, 'INVALID_INPUT');
    assert.match(textOf(huge), /text: .*100000/);
    assert.equal((await h.call('browser_click', {})).code, 'INVALID_INPUT');
    assert.equal((await h.call('browser_click', { ref: '3', x: 1, y: 2 })).code, 'INVALID_INPUT');
    assert.equal((await h.call('browser_press_key', { key: 'Hyper+Q' })).code, 'INVALID_INPUT');
    assert.equal((await h.call('browser_wait', {})).code, 'INVALID_INPUT');
  });

  it('an unknown ref is an error with a code, never a hang', async () => {
    await h.ok('browser_navigate', { url: srv.url });
    const r = await h.call('browser_click', { ref: '999' });
    assert.ok(r.isError);
    assert.ok(['TARGET_NOT_FOUND', 'STALE_REF'].includes(r.code!), r.code);
  });

  it('takes viewport, full-page (scaled to ≤1568 px) screenshots as image parts', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/tall` });
    const vp = await h.call('browser_screenshot', {});
    const img = vp.content.find((c) => c.type === 'image') as { data: string };
    assert.ok(img);
    const size = pngSize(img.data);
    assert.ok(size.width > 100 && size.width <= 1568 && size.height <= 1568, JSON.stringify(size));
    const full = await h.call('browser_screenshot', { fullPage: true });
    const fsize = pngSize((full.content[1] as { data: string }).data);
    assert.equal(fsize.height, 1568);
    assert.match(textOf(full), /scaled by 0\.3/);
  });

  it('evaluates expressions, statements, functions and awkward values as JSON', async () => {
    await h.ok('browser_navigate', { url: srv.url });
    assert.match(await h.ok('browser_evaluate', { script: '1 + 1' }), /Result[^\n]*:\n<page-content id=\w+>\n2/);
    assert.match(await h.ok('browser_evaluate', { script: 'const a = [1, 2]; a.map((x) => x * 2)' }), /Result[^\n]*:\n<page-content id=\w+>\n\[2,4\]/);
    assert.match(await h.ok('browser_evaluate', { script: '() => document.title' }), /Result[^\n]*:\n<page-content id=\w+>\n"Home"/);
    assert.match(await h.ok('browser_evaluate', { script: 'await new Promise((r) => setTimeout(() => r({ ok: true }), 50))' }), /Result[^\n]*:\n<page-content id=\w+>\n\{"ok":true\}/);
    assert.match(await h.ok('browser_evaluate', { script: 'const o = { n: 1n, el: document.body, u: undefined }; o.self = o; o' }), /"n":"1n","el":"<body>","u":null,"self":"\[Circular\]"/);
    const bad = await h.call('browser_evaluate', { script: 'nope()' });
    assert.equal(bad.code, 'INVALID_INPUT');
    assert.match(textOf(bad), /ReferenceError: nope is not defined/);
  });

  it('extracts the main content as Markdown, the links, and the tables', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/article` });
    const md = await h.ok('browser_extract', {});
    assert.match(md, /^The page's content \(markdown\):\n<page-content id=\d+>\nURL: http:\/\/127\.0\.0\.1:\d+\/article\n\n/);
    assert.match(md, /The heading/);
    assert.match(md, /\*\*bold\*\*/);
    assert.match(md, /\[link\]\(http:\/\/127\.0\.0\.1:\d+\/more\)/);
    assert.doesNotMatch(md, /Footer noise/);
    const links = await h.ok('browser_extract', { what: 'links' });
    assert.match(links, /- \[About\]\(http:\/\/127\.0\.0\.1:\d+\/b\)/);
    assert.doesNotMatch(links, /javascript:/);
    const tables = await h.ok('browser_extract', { what: 'tables' });
    // Header, fence, the page's URL and a blank line, then the JSON up to the fence's end.
    const json = JSON.parse(tables.split('\n').slice(4, -1).join('\n'));
    assert.deepEqual(json[0].rows, [{ Item: 'Tea', Price: '3' }, { Item: 'Cake', Price: '5' }]);
    assert.equal(json[0].caption, 'Prices');
  });

  it('waits for text to appear and disappear, for time, and times out with a hint', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/late` });
    assert.match(await h.ok('browser_wait', { text: 'Arrived late', timeoutMs: 5000 }), /met after/);
    await evalPage(h, `setTimeout(() => document.getElementById('gone').remove(), 200)`);
    assert.match(await h.ok('browser_wait', { textGone: 'Going away', timeoutMs: 5000 }), /met after/);
    const waited = Number(/Waited (\d+) ms/.exec(await h.ok('browser_wait', { timeMs: 150 }))?.[1]);
    assert.ok(waited >= 150, `waited ${waited} ms`); // at least the time asked for; how much more depends on the machine
    const t = await h.call('browser_wait', { text: 'never there', timeoutMs: 400 });
    assert.equal(t.code, 'TIMEOUT');
    assert.match(textOf(t), /browser_snapshot/);
  });

  it('scrolls the page with the wheel and reports the position', async () => {
    await h.ok('browser_navigate', { url: `${srv.origin}/tall` });
    assert.match(await h.ok('browser_scroll', { direction: 'down', amount: 1000 }), /Scrolled the page down by 1000 px; now at y=1000/);
    assert.match(await h.ok('browser_scroll', { direction: 'up' }), /Scrolled the page up/);
    await h.ok('browser_scroll', { direction: 'up', amount: 100000 });
    assert.match(await h.ok('browser_scroll', { direction: 'up' }), /did not scroll up/);
  });

  it('presses keys on the page', async () => {
    await h.ok('browser_navigate', { url: 'about:blank' });
    await h.ok('browser_evaluate', { script: `document.body.innerHTML = '<input id=i autofocus>'; document.getElementById('i').focus(); 0` });
    assert.match(await h.ok('browser_press_key', { key: 'a', repeat: 3 }), /Pressed a 3 times; focus is on \[\d+\] textbox/);
    assert.equal(await evalPage(h, `document.getElementById('i').value`), 'aaa');
    await h.ok('browser_press_key', { key: 'Shift+B' });
    assert.equal(await evalPage(h, `document.getElementById('i').value`), 'aaaB');
  });

  it('opens, lists, selects and closes tabs; a bad index is a clear error', async () => {
    await h.ok('browser_navigate', { url: srv.url });
    assert.match(await h.ok('browser_tabs', { action: 'new', url: `${srv.origin}/two` }), /^Opened a new tab; it is now active:\n[\s\S]*^1\. \(active\) Two http:\/\/127\.0\.0\.1:\d+\/two \[id /m);
    // The tabs' titles and URLs (page text) in one fence, each URL whole.
    const list = await h.ok('browser_tabs', { action: 'list' });
    assert.match(list, /^<page-content id=(\d+)>\n0\. Home http:\/\/127\.0\.0\.1:\d+\/ \[id \w+\]\n1\. \(active\) Two http:\/\/127\.0\.0\.1:\d+\/two \[id \w+\]\n<\/page-content id=\1>$/);
    assert.match(await h.ok('browser_tabs', { action: 'select', index: 0 }), /^Selected tab \w+; it is now active:\n[\s\S]*^0\. \(active\) Home /m);
    assert.match(await h.ok('browser_tabs', { action: 'close', index: 1 }), /^Closed: Two http:.*\/two \[id /m);
    const bad = await h.call('browser_tabs', { action: 'select', index: 7 });
    assert.equal(bad.code, 'TAB_CLOSED');
    assert.match(textOf(bad), /Open tabs:\n<page-content id=\d+>\n0\./);
  });

  it('survives the active tab being closed under it', async () => {
    await h.ok('browser_tabs', { action: 'new', url: `${srv.origin}/two` });
    const browser = await h.ctx.browser();
    const tab = await browser.activeTab();
    await browser.connection.send('Target.closeTarget', { targetId: tab.targetId });
    await sleep(200);
    assert.match(await h.ok('browser_evaluate', { script: 'location.href' }), /Result[^\n]*:\n<page-content id=\w+>\n"/);
  });

  it('a browser killed mid-call gives BROWSER_DISCONNECTED, and the next call relaunches', async () => {
    await h.ok('browser_navigate', { url: srv.url });
    const browser = await h.ctx.browser();
    const pending = h.call('browser_wait', { text: 'never', timeoutMs: 10_000 });
    await sleep(300);
    process.kill(-browser.pid!, 'SIGKILL');
    const r = await pending;
    assert.equal(r.code, 'BROWSER_DISCONNECTED', textOf(r));
    assert.match(await h.ok('browser_navigate', { url: `${srv.origin}/two` }), /\nTitle: Two\n/);
  });

  it('closes the browser, and the next call starts a new one', async () => {
    assert.match(await h.ok('browser_close'), /Closed the browser/);
    assert.match(await h.ok('browser_close'), /No browser was open/);
    assert.match(await h.ok('browser_navigate', { url: srv.url }), /\nTitle: Home\n/);
  });
});
