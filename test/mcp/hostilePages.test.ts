// An attacker's sweep: pages that try to trap, flood or break the agent, through the real MCP server
// (the SDK's client over stdio, --no-daemon), real headless Chromium and real loopback HTTP servers.
// Covered elsewhere, so not repeated here: while(true) pages (test/actions/hung.test.ts,
// test/daemon/faults.test.ts), alert/confirm on load (test/mcp/widgets.test.ts), a beforeunload prompt
// on navigate (test/actions/settle.test.ts), one window.open popup (test/actions/settle.test.ts).
import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CdpConnection } from '../../src/session/cdp';
import { readDevToolsActivePort, sleep } from '../../src/session/launcher';
import { crossSite } from '../helpers/chromium';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { launchedBrowserOf } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * Tells an answer from a hang, nothing more: a hang runs into the 60 s call timeout, and a call on a loaded 2-core
 * machine took 16-18 s where it takes 8-12 s idle (how fast it is, is measured in the benchmarks).
 */
const QUICK_MS = 40_000;

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Start</title><h1>Start</h1><button onclick="document.title='clicked'">Press me</button>`,
  '/next': `<!doctype html><title>Next page</title><h1>Next</h1><button>Go on</button>`,
  // Alerts again after every answer, for ever (until the tab leaves the page).
  '/alertloop': `<!doctype html><title>Alert loop</title><p>trapped</p><script>let n = 0; onload = () => { for (;;) alert('Again ' + (++n)); };</script>`,
  // The same, but each alert comes from a new task, so the page is idle between them.
  '/alertloop2': `<!doctype html><title>Alert loop 2</title><p>trapped again</p><script>let n = 0; const again = () => { alert('Once more ' + (++n)); setTimeout(again, 0); }; onload = again;</script>`,
  // Asks before leaving, whatever the way out; the click gives the sticky user activation Chromium requires.
  '/trap': `<!doctype html><title>Trap</title><input id=i aria-label="Name"><script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'Stay!'; });</script>`,
  // One click opens 40 windows.
  '/storm': `<!doctype html><title>Storm</title><button onclick="for (let i = 0; i < 40; i++) window.open('/child?i=' + i, '_blank')">Win a prize</button>`,
  '/child': `<!doctype html><title>Child window with a rather long title to make every line of noise cost something</title><p>child</p>`,
  // A popup that closes itself when its button is clicked.
  '/opener': `<!doctype html><title>Opener</title><button onclick="window.open('/closer', '_blank')">Open helper</button>`,
  '/opener-press': `<!doctype html><title>Opener</title><button onclick="window.open('/closer-press', '_blank')">Open helper</button>`,
  '/closer': `<!doctype html><title>Closer</title><button onclick="window.close()">Done</button>`,
  // Closes on the press: the page may be gone before the release is answered.
  '/closer-press': `<!doctype html><title>Closer</title><button onmousedown="window.close()">Done</button>`,
  // History and title floods.
  '/flood': `<!doctype html><title>Flood</title><button id=push onclick="for (let i = 0; i < 2000; i++) history.pushState({ i }, '', '/flood?step=' + i); document.getElementById('out').textContent = 'pushed ' + history.length">Push</button>
<p id=out>idle</p><script>let t = 0; setInterval(() => { document.title = 'Tick ' + (++t); }, 1);</script>`,
  // A click that never returns: the handler spins for ever.
  '/spin': `<!doctype html><title>Spin</title><button onclick="for (;;) {}">Spin</button>`,
  // A synchronous request to a server that never answers: the main thread waits for ever.
  '/syncxhr': `<!doctype html><title>Sync</title><button onclick="const x = new XMLHttpRequest(); x.open('GET', '/never', false); x.send();">Fetch</button>`,
  // Adds 500 elements every 10 ms, for ever; and a print dialog.
  '/churn': `<!doctype html><title>Churn</title><button onclick="setInterval(() => { const d = document.createElement('div'); d.innerHTML = '<button>Item</button>'.repeat(500); document.body.append(d); if (document.body.children.length > 40) document.body.children[2].remove(); }, 10)">Start</button><button onclick="window.print(); document.title = 'printed'">Print</button>`,
  // A cross-site iframe (its own renderer) that spins for ever once loaded, beside a working page.
  '/spinframe': `<!doctype html><title>Spin frame</title><p>spin now</p><script>setTimeout(() => { for (;;) {} }, 200)</script>`,
  // Reloads itself for ever, a new document every ~100 ms.
  '/reloader': `<!doctype html><title>Reloader</title><button>Catch me</button><script>setTimeout(() => location.reload(), 100)</script>`,
  // Megabyte strings wherever a page can put one: title, URL, console, a dialog, a button's name.
  '/huge': `<!doctype html><title>Huge</title><button id=b onclick="const big = 'W'.repeat(1_000_000); document.title = big; history.pushState({}, '', '/huge?' + 'q'.repeat(100_000)); for (let i = 0; i < 10; i++) console.error(big); this.textContent = big; setTimeout(() => alert(big), 0);">Blow up</button>`,
  // Breaks the globals a page script of ours might lean on.
  '/globals': `<!doctype html><title>Globals</title><h1>Broken globals</h1>
<article><p>${'This paragraph is the main readable text of a page that has broken every global it could. '.repeat(4)}</p><p>${'A second paragraph, so the readability algorithm has enough to keep as content. '.repeat(4)}</p></article>
<label>Size <select id=size><option>Small</option><option>Large</option></select></label>
<label>Search <input id=q></label> <button id=go onclick="document.getElementById('said').textContent = 'Searched ' + document.getElementById('q').value">Go</button><p id=said>nothing yet</p>
<script>
  window.JSON = { stringify() { throw new Error('JSON broken'); }, parse() { throw new Error('JSON broken'); } };
  window.Promise = function () { throw new Error('Promise broken'); };
  Array.prototype.map = function () { throw new Error('map broken'); };
  Array.prototype.filter = function () { throw new Error('filter broken'); };
  Array.prototype.push = function () { throw new Error('push broken'); };
  Array.from = function () { throw new Error('from broken'); };
  Object.keys = function () { throw new Error('keys broken'); };
  Function.prototype.toString = function () { throw new Error('toString broken'); };
  document.querySelector = function () { return null; };
  document.querySelectorAll = function () { return []; };
  Element.prototype.getBoundingClientRect = function () { return { x: -9999, y: -9999, width: 0, height: 0, top: -9999, left: -9999, right: -9999, bottom: -9999 }; };
  Element.prototype.scrollIntoView = function () { throw new Error('scroll broken'); };
  window.getComputedStyle = function () { throw new Error('style broken'); };
  EventTarget.prototype.dispatchEvent = function () { throw new Error('dispatch broken'); };
</script>`,
};

describe('mcp: hostile pages through the real MCP server', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let mcp: McpProcess;

  before(async () => {
    srv = await startServer(PAGES);
    srv.route('/loop', (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    srv.route('/never', () => {
      /* never answers */
    });
    // Headers and the start of the page at once, then one byte every 300 ms, for ever.
    srv.route('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(`<!doctype html><title>Dripping</title><h1>Rendered so far</h1><button>Early button</button>${' '.repeat(2048)}`);
      const t = setInterval(() => res.write(' '), 300);
      res.on('close', () => clearInterval(t));
    });
    // Popups allowed, so the storm is real (Chromium blocks all but one window.open per click by default).
    mcp = await startMcp([...HEADLESS_ARGS, '--browser-arg=--disable-popup-blocking', '--max-wait-ms', '8000', '--allow-confirm-actions']);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
  });

  /** Calls a tool and asserts it answered within QUICK_MS. */
  async function timed(name: string, args: Record<string, unknown> = {}) {
    const t0 = Date.now();
    const r = await mcp.call(name, args, 60_000);
    const ms = Date.now() - t0;
    if (process.env.HOSTILE_TIMES) console.log(`${name} ${ms} ms`);
    assert.ok(ms < QUICK_MS, `${name} took ${ms} ms: ${r.text.slice(0, 300)}`);
    return r;
  }
  async function ok(name: string, args: Record<string, unknown> = {}) {
    const r = await timed(name, args);
    assert.equal(r.isError, false, `${name}: ${r.text}`);
    return r.text;
  }
  /** Closes every tab but one and leaves that one on the start page. */
  async function reset() {
    for (let i = 0; i < 60; i++) {
      const list = (await mcp.call('browser_tabs', { action: 'list' })).text.split('\n').filter((l) => /^\d+\./.test(l));
      if (list.length <= 1) break;
      await mcp.call('browser_tabs', { action: 'close', index: list.length - 1 });
    }
    const r = await mcp.call('browser_navigate', { url: srv.url });
    if (/Dialog open/.test(r.text)) await mcp.call('browser_handle_dialog', { accept: true });
  }
  function refOf(snap: string, line: RegExp): string {
    const l = snap.split('\n').find((x) => line.test(x));
    const ref = l && /^\[([^\]]+)\]/.exec(l)?.[1];
    assert.ok(ref, `no line ${line} in:\n${snap}`);
    return ref;
  }
  async function tabLines(): Promise<string[]> {
    return (await ok('browser_tabs', { action: 'list' })).split('\n').filter((l) => /^\d+\./.test(l));
  }

  it('the active tab\'s renderer crashes: the next call says so at once, and navigate recovers the tab', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/next` });
    const goOn = refOf(await ok('browser_snapshot'), /button "Go on"/);
    // A second, raw CDP client crashes the renderer of that tab, as an out-of-memory kill would.
    const browser = launchedBrowserOf(mcp.pid);
    assert.ok(browser, 'the MCP server launched a browser');
    const cdp = await CdpConnection.connect(readDevToolsActivePort(browser.profileDir)!);
    try {
      const { targetInfos } = await cdp.send('Target.getTargets');
      const target = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/next'));
      assert.ok(target, JSON.stringify(targetInfos));
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
      const crashed = new Promise((r) => cdp.once('Inspector.targetCrashed', r));
      cdp.send('Page.crash', undefined, sessionId, 2000).catch(() => undefined); // the renderer dies before it answers
      await crashed;
    } finally {
      cdp.close();
    }
    for (const [tool, args] of [['browser_snapshot', {}], ['browser_click', { ref: goOn }], ['browser_click', { x: 10, y: 10 }], ['browser_screenshot', {}], ['browser_evaluate', { script: '1' }]] as const) {
      const r = await timed(tool, args);
      assert.equal(r.isError, true, `${tool}: ${r.text}`);
      assert.match(r.text, /^PAGE_CRASHED: .*crashed/, `${tool}: ${r.text}`);
      assert.match(r.text, /browser_navigate/, `${tool} says how to go on`);
    }
    const nav = await ok('browser_navigate', { url: srv.url });
    assert.match(nav, /Navigated to/);
    const snap = await ok('browser_snapshot');
    assert.match(snap, /button "Press me"/);
    assert.equal((await tabLines()).length, 1, 'the same tab was reused');
  });

  it('an alert loop: every answer names the next alert, and navigate leaves the page', async () => {
    await reset();
    const nav = await timed('browser_navigate', { url: `${srv.origin}/alertloop` });
    assert.match(nav.text, /Dialog open: alert <page-content id=(\w+)>Again 1<\/page-content id=\1>/);
    for (let i = 1; i <= 5; i++) {
      const r = await ok('browser_handle_dialog', { accept: true });
      assert.match(r, new RegExp(`Accepted the alert <page-content id=(\\w+)>Again ${i}<`));
      assert.match(r, new RegExp(`Dialog open: alert <page-content id=(\\w+)>Again ${i + 1}<`));
      assert.ok(r.length < 1500, `bounded result (${r.length} chars)`);
    }
    // Other tools are refused while the alert is up, with the way out.
    const snap = await timed('browser_click', { x: 5, y: 5 });
    assert.equal(snap.isError, true);
    assert.match(snap.text, /^DIALOG_OPEN: .*browser_handle_dialog/s);
    // Leaving the page is always possible, though the page alerts again at once.
    const away = await ok('browser_navigate', { url: `${srv.origin}/next` });
    assert.match(away, /The page kept opening dialogs \(3 dismissed, the last: alert <page-content id=(\w+)>Again \d+<\/page-content id=\1>\); its renderer was stopped\. Navigated to/);
    assert.doesNotMatch(away, /Dialog open/);
    assert.ok(away.length < 3000, `bounded result (${away.length} chars)`);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('an alert loop with a task between alerts: navigate still leaves the page', async () => {
    await reset();
    const nav = await timed('browser_navigate', { url: `${srv.origin}/alertloop2` });
    assert.match(nav.text, /Dialog open: alert <page-content id=(\w+)>Once more 1</);
    const away = await ok('browser_navigate', { url: `${srv.origin}/next` });
    assert.match(away, /^The page kept opening dialogs \(3 dismissed, the last: alert <page-content id=(\w+)>Once more \d+<\/page-content id=\1>\); its renderer was stopped\. Navigated to/);
    assert.doesNotMatch(away, /Dialog open/);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('a beforeunload trap: reload names the dialog and accepting it goes through; closing the tab closes it at once', async () => {
    await reset();
    await ok('browser_tabs', { action: 'new', url: `${srv.origin}/trap` });
    const snap = await ok('browser_snapshot');
    await ok('browser_click', { ref: refOf(snap, /textbox "Name"/) }); // sticky activation: the prompt now shows
    const reload = await ok('browser_reload');
    assert.match(reload, /Dialog open: beforeunload/);
    assert.match(await ok('browser_handle_dialog', { accept: true }), /Accepted the beforeunload/);
    // Closing the tab: the page asks again; the result says so and the answer closes it.
    const snap2 = await ok('browser_snapshot');
    await ok('browser_click', { ref: refOf(snap2, /textbox "Name"/) });
    // Closing the tab does not ask the page: the model chose to close it, and the tab goes at once.
    const close = await ok('browser_tabs', { action: 'close' });
    assert.match(close, /^Closed the active tab;/);
    for (let i = 0; i < 50 && (await tabLines()).length > 1; i++) await sleep(100);
    const tabs = await tabLines();
    assert.equal(tabs.length, 1, tabs.join('\n'));
    assert.doesNotMatch(tabs[0], /Trap/);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
  });

  it('a popup storm of 40 windows: the click result stays short, tabs are listed and closed', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/storm` });
    const snap = await ok('browser_snapshot');
    const click = await ok('browser_click', { ref: refOf(snap, /button "Win a prize"/) });
    assert.match(click, /^40 new tabs opened \(5 named here; browser_tabs lists them all\)\.$/m);
    assert.match(click, /New tab opened: .* — now the active tab/, 'the active one is named');
    assert.ok(click.length < 2500, `click result is ${click.length} chars:\n${click}`);
    assert.ok(click.split('\n').filter((l) => /New tab opened/.test(l)).length <= 5, click);
    let tabs: string[] = [];
    for (let i = 0; i < 50; i++) {
      tabs = await tabLines();
      if (tabs.length === 41) break;
      await sleep(100);
    }
    assert.equal(tabs.length, 41, tabs.join('\n'));
    assert.ok(tabs.slice(1).every((l) => /\/child\?i=\d+/.test(l)), tabs.join('\n'));
    for (let n = 41; n > 1; n--) await ok('browser_tabs', { action: 'close', index: n - 1 });
    const left = await tabLines();
    assert.equal(left.length, 1);
    assert.match(left[0], /\(active\).*Storm/);
  });

  it('an endless redirect loop: navigate says too many redirects, and the tab still works', async () => {
    await reset();
    const r = await timed('browser_navigate', { url: `${srv.origin}/loop` });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^NAVIGATION_FAILED: .*ERR_TOO_MANY_REDIRECTS/);
    assert.match(r.text, /redirect/i);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('a response that never ends: navigate returns within its cap saying so, and what rendered can be read and used', async () => {
    await reset();
    const r = await ok('browser_navigate', { url: `${srv.origin}/drip` });
    assert.match(r, /Navigated to/);
    assert.match(r, /still loading/);
    const snap = await ok('browser_snapshot');
    assert.match(snap, /Rendered so far/);
    const click = await ok('browser_click', { ref: refOf(snap, /button "Early button"/) });
    assert.match(click, /Clicked/);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
  });

  for (const [how, path] of [['on its click', ''], ['on the press, before the release is answered', '-press']] as const)
  it(`a popup that closes itself ${how}: the result says the tab is gone, the next call works in the opener`, async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/opener${path}` });
    const open = await ok('browser_click', { ref: refOf(await ok('browser_snapshot'), /button "Open helper"/) });
    assert.match(open, /New tab opened: .*\/closer.* now the active tab/);
    const helper = await ok('browser_snapshot');
    const done = await ok('browser_click', { ref: refOf(helper, /button "Done"/) });
    assert.match(done, /^Clicked button "Done"|\nClicked button "Done"/);
    // window.close() is asynchronous: the click's result says so when the tab went before it was written, else the next one does, once.
    const snap = await ok('browser_snapshot');
    const said = /Note: the tab <page-content id=(\w+)>Closer<\/page-content id=\1> <page-content id=(\w+)>http:\/\/127\.0\.0\.1:\d+\/closer(?:-press)?<\/page-content id=\2> was closed \(by the page itself, the user or the origin policy\); the active tab is now <page-content id=(\w+)>Opener</;
    assert.equal([done, snap].filter((t) => said.test(t)).length, 1, `${done}\n---\n${snap}`);
    assert.match(snap, /button "Open helper"/);
    const tabs = await tabLines();
    assert.equal(tabs.length, 1, tabs.join('\n'));
  });

  it('2,000 pushState calls and a title that changes every millisecond: results stay short and right', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/flood` });
    const snap = await ok('browser_snapshot');
    assert.ok(snap.length < 3000, `snapshot is ${snap.length} chars`);
    const click = await ok('browser_click', { ref: refOf(snap, /button "Push"/) });
    assert.ok(click.length < 3000, `click result is ${click.length} chars:\n${click.slice(0, 3000)}`);
    assert.match(click, /flood\?step=1999/);
    assert.doesNotMatch(click, /still loading/, 'a pushState is no load');
    const after = await ok('browser_snapshot');
    assert.match(after, /pushed \d+/);
    assert.match(after, /flood\?step=1999/);
    assert.ok(after.length < 3000, `snapshot is ${after.length} chars`);
    const back = await ok('browser_navigate_back');
    assert.match(back, /step=1998/);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
  });

  it('a click whose handler never returns: the click answers within seconds saying the page hung, navigate leaves it', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/spin` });
    const click = await timed('browser_click', { ref: refOf(await ok('browser_snapshot'), /button "Spin"/) });
    assert.equal(click.isError, true, click.text);
    assert.match(click.text, /^PAGE_HUNG: Clicked button "Spin", and the page has not responded since: a script has kept it busy for over 5 s\.\nHint: Leave it with browser_navigate/);
    const snap = await timed('browser_snapshot');
    assert.match(snap.text, /^PAGE_HUNG: /);
    const away = await ok('browser_navigate', { url: `${srv.origin}/next` });
    assert.match(away, /was hung.*Navigated to/s);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('a click that starts a synchronous request that never ends: PAGE_HUNG within seconds, navigate leaves it', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/syncxhr` });
    const click = await timed('browser_click', { ref: refOf(await ok('browser_snapshot'), /button "Fetch"/) });
    assert.match(click.text, /^PAGE_HUNG: Clicked button "Fetch", and the page has not responded since/);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /was hung.*Navigated to/s);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('a page that never stops changing and a print dialog: clicks and snapshots answer, results stay within the budget', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/churn` });
    const first = await ok('browser_snapshot');
    const print = await ok('browser_click', { ref: refOf(first, /button "Print"/) });
    assert.match(print, /Clicked button "Print"/);
    const start = await ok('browser_click', { ref: refOf(first, /button "Start"/) });
    assert.ok(countTokens(start) <= 25_000, `click result: ${countTokens(start)} tokens`);
    for (let i = 0; i < 3; i++) {
      const snap = await ok('browser_snapshot');
      assert.ok(countTokens(snap) <= 25_000, `snapshot: ${countTokens(snap)} tokens`);
      assert.match(snap, /button "Item"/);
    }
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
  });

  it('a cross-site iframe that hangs: snapshot, click and navigate on the page still answer within seconds', async () => {
    await reset();
    srv.route('/hostframe', `<!doctype html><title>Host</title><button onclick="document.title = 'host clicked'">Host button</button><iframe src="${crossSite(srv.origin)}/spinframe"></iframe>`);
    await ok('browser_navigate', { url: `${srv.origin}/hostframe` });
    await sleep(1500); // the frame's script starts 200 ms after it loaded
    const snap = await ok('browser_snapshot');
    assert.match(snap, /button "Host button"/);
    assert.match(snap, /\[frame f\d+: not readable \(not responding: a script keeps the frame busy\)\]/);
    const click = await ok('browser_click', { ref: refOf(snap, /button "Host button"/) });
    assert.match(click, /host clicked/);
    assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
    assert.match(await ok('browser_snapshot'), /button "Go on"/);
  });

  it('a page that reloads itself every 100 ms: every call answers, refs from a gone document are STALE_REF, navigate leaves it', async () => {
    await reset();
    const nav = await ok('browser_navigate', { url: `${srv.origin}/reloader` });
    assert.match(nav, /Navigated to/);
    let stale = 0;
    for (let i = 0; i < 5; i++) {
      const snap = await ok('browser_snapshot');
      assert.match(snap, /button "Catch me"/);
      const r = await timed('browser_click', { ref: refOf(snap, /button "Catch me"/) });
      if (r.isError) {
        assert.match(r.text, /^STALE_REF: .*button "Catch me"/, r.text);
        stale++;
      } else assert.match(r.text, /Clicked button "Catch me"/);
    }
    // Chromium may still commit a reload the old page asked for just before our navigation, after it (seen in
    // about 1 run of 3): the result named the page that was there, and navigating again stays.
    let tries = 0;
    let last = '';
    while (tries < 3 && !/button "Go on"/.test(last)) {
      tries++;
      assert.match(await ok('browser_navigate', { url: `${srv.origin}/next` }), /Navigated to/);
      last = await ok('browser_snapshot');
    }
    assert.match(last, /button "Go on"/);
    if (process.env.HOSTILE_TIMES) console.log(`${stale} of 5 clicks found the document gone; ${tries} navigation(s) to leave`);
  });

  it('megabyte title, URL, console errors, dialog and element name: every result stays small', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/huge` });
    const click = await ok('browser_click', { ref: refOf(await ok('browser_snapshot'), /button "Blow up"/) });
    const small = (what: string, text: string, max = 12_000) => assert.ok(text.length < max, `${what}: ${text.length} chars:\n${text.slice(0, 600)}`);
    // What the strictest common client takes in one result (Claude Code's cap; see resultSize.test.ts).
    const fits = (what: string, text: string) => assert.ok(countTokens(text) <= 25_000, `${what}: ${countTokens(text)} tokens`);
    small('click', click);
    assert.match(click, /Dialog open: alert/);
    small('handle_dialog', await ok('browser_handle_dialog', { accept: true }));
    small('tabs', await ok('browser_tabs', { action: 'list' }));
    const snap = await ok('browser_snapshot');
    fits('snapshot', snap);
    assert.match(snap, /^Title: W{299}…$/m, 'the title line is cut');
    // The megabyte of text is folded after the first look; read on with all its text, the budget cuts it.
    const fold = /\[Page text folded after line (\d+): \d+ lines of text \(~[\d,]+ tokens\) are not shown/.exec(snap);
    assert.ok(fold, snap.slice(-600));
    const more = await ok('browser_snapshot', { offset: Number(fold[1]) });
    fits('snapshot read on from the fold', more);
    assert.match(more, /\[Cut by the 16,000-token budget/);
    fits('whole text snapshot', await ok('browser_snapshot', { fullText: true }));
    small('find', await ok('browser_find', { query: 'WWWW' }));
    small('new tab', await ok('browser_tabs', { action: 'new', url: `${srv.origin}/next` }));
    small('close', await ok('browser_tabs', { action: 'close' }));
  });

  it('a page that breaks JSON, Promise, Array, Function.toString, querySelector and getBoundingClientRect: snapshot, type, click, find and extract still work', async () => {
    await reset();
    await ok('browser_navigate', { url: `${srv.origin}/globals` });
    const snap = await ok('browser_snapshot');
    assert.match(snap, /Broken globals/);
    assert.match(snap, /textbox "Search"/);
    await ok('browser_type', { ref: refOf(snap, /textbox "Search"/), text: 'kittens' });
    assert.match(await ok('browser_click', { ref: refOf(snap, /button "Go"/) }), /Clicked button "Go"/);
    assert.match(await ok('browser_find', { query: 'Searched' }), /Searched kittens/);
    const md = await ok('browser_extract', {});
    assert.match(md, /main readable text of a page/);
    const details = await ok('browser_element_details', { refs: [refOf(snap, /button "Go"/)] });
    assert.match(details, /#go|button/);
    assert.match(await ok('browser_select_option', { ref: refOf(snap, /combobox "Size"/), values: ['Large'] }), /Large/);
    assert.match(await ok('browser_fill_form', { fields: [{ ref: refOf(snap, /textbox "Search"/), value: 'puppies' }] }), /puppies|Search/);
    assert.match(await ok('browser_evaluate', { script: "document.getElementById('size').value + ' ' + document.getElementById('q').value" }), /"Large puppies"/);
    await ok('browser_hover', { ref: refOf(snap, /button "Go"/) });
    const shot = await timed('browser_screenshot', {});
    assert.equal(shot.images, 1, shot.text);
  });
});
