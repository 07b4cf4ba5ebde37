import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { clickElement } from '../../src/actions/click';
import { navigate } from '../../src/actions/navigate';
import { perform } from '../../src/actions/scope';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, pageHandle, startHarness, textOf, type Harness } from './harness';

const page = (body: string, title = 'settle') => `<!doctype html><title>${title}</title><body>${body}</body>`;

describe('actions: waits that settle, modal states, downloads, popups', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  const openPolls: import('node:http').ServerResponse[] = [];
  before(async () => {
    srv = await startServer({
      '/static': page(`<button id=b onclick="this.textContent='done'">Go</button>`),
      '/xhr': page(`<button id=b onclick="fetch('/slow').then(r => r.text()).then(t => out.textContent = t)">Load</button><div id=out></div>`),
      '/slow': (_req, res) => setTimeout(() => res.end('slow data'), 1200),
      '/poll': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(' ');
        openPolls.push(res);
      },
      '/events': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: hi\n\n');
        openPolls.push(res);
      },
      '/longpoll': page(`<script>new EventSource('/events'); fetch('/poll');</script><button id=b onclick="this.textContent='done'">Go</button><button id=p onclick="fetch('/poll?again')">Poll</button>`),
      '/links': page(`<a id=a href="/target">next</a><button id=spa onclick="history.pushState({}, '', '/spa/route'); document.title = 'Route'">Route</button>`),
      '/target': (_req, res) => setTimeout(() => res.end('<title>Target</title><p>arrived</p>'), 400),
      '/never': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<title>Never</title><p>partial');
        openPolls.push(res);
      },
      '/dialogs': page(`<button id=alert onclick="alert('Hello')">Alert</button><button id=confirm onclick="window.answer = confirm('Sure?')">Confirm</button><button id=prompt onclick="window.answer = prompt('Name?', 'x')">Prompt</button>`),
      '/leave': page(`<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; })</script><input id=i>`),
      '/upload': page(`<input id=f type=file multiple style="display:none"><button id=pick onclick="f.click()">Upload</button>`),
      '/dl': page(`<a id=a href="/report.csv">Report</a>`),
      '/report.csv': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' });
        res.end('a,b\n1,2\n');
      },
      '/popup': page(`<button id=o onclick="window.open('/target')">Open</button><button id=err onclick="console.error('boom here'); null.x">Err</button>`),
    });
    h = await startHarness();
  });
  after(async () => {
    for (const r of openPolls) r.destroy();
    await h?.close();
    await srv?.close();
  });
  const go = (path: string) => h.ok('browser_navigate', { url: srv.origin + path });
  const clickSel = async (sel: string, cap?: number) => {
    const handle = await pageHandle(h, `document.querySelector(${JSON.stringify(sel)})`, 'button', sel);
    const t0 = Date.now();
    const r = await perform(h.ctx, { settleCapMs: cap }, (s) => clickElement(s, handle));
    return { text: textOf(r), ms: Date.now() - t0, r };
  };

  // How fast it returns is measured by npm run bench:actions ("click, static page"), not asserted here.
  it('a click on a static page settles with nothing pending', async () => {
    await go('/static');
    const r = await clickSel('#b');
    assert.ok(!r.r.isError, r.text);
    assert.doesNotMatch(r.text, /still running|still loading/);
  });

  it('waits for the XHR a click started', async () => {
    await go('/xhr');
    const r = await clickSel('#b');
    assert.ok(r.ms >= 1100, `${r.ms} ms`);
    assert.equal(await evalPage(h, 'out.textContent'), 'slow data');
  });

  it('ignores EventSource and long-polls that were open before; caps one the action starts', async () => {
    await go('/longpoll');
    const quick = await clickSel('#b');
    assert.doesNotMatch(quick.text, /still running/);
    const capped = await clickSel('#p');
    assert.ok(capped.ms >= 2900, `${capped.ms} ms`);
    // Same machine, same moment: the click that ignores the older connections returned before the capped one.
    assert.ok(quick.ms < capped.ms, `${quick.ms} ms vs ${capped.ms} ms`);
    assert.match(capped.text, /1 request\(s\) started by this action are still running/);
  });

  it('waits for the navigation a link click started and reports URL and title', async () => {
    await go('/links');
    const r = await clickSel('#a');
    assert.match(r.text, /URL: .*\/target/);
    assert.match(r.text, /\nTitle: Target\n/);
    assert.equal(await evalPage(h, 'document.body.innerText'), 'arrived');
  });

  it('reports an SPA route change', async () => {
    await go('/links');
    const r = await clickSel('#spa');
    assert.match(r.text, /URL: .*\/spa\/route/);
    assert.match(r.text, /\nTitle: Route\n/);
  });

  it('gives up on a page that never finishes loading, within the cap, and says so', async () => {
    // The page never finishes; without the cap this would run into the test's timeout.
    const r = await perform(h.ctx, { settleCapMs: 2500 }, (s) => navigate(s, `${srv.origin}/never`));
    assert.match(textOf(r), /Navigated to/);
    assert.match(textOf(r), /still loading/);
  });

  it('reports alert/confirm/prompt dialogs at once, blocks other actions, and answers them', async () => {
    await go('/dialogs');
    // A cap beyond the test's timeout: the click returns because the dialog is reported, not because the cap ran out.
    const a = await clickSel('#alert', 120_000);
    assert.match(a.text, /Dialog open: alert <page-content id=\w+>Hello</);
    const blocked = await h.call('browser_click', { x: 5, y: 5 });
    assert.equal(blocked.code, 'DIALOG_OPEN');
    assert.match(textOf(blocked), /browser_handle_dialog/);
    assert.match(await h.ok('browser_handle_dialog', { accept: true }), /Accepted the alert <page-content id=\w+>Hello</);
    await clickSel('#confirm');
    await h.ok('browser_handle_dialog', { accept: false });
    assert.equal(await evalPage(h, 'window.answer'), false);
    await clickSel('#prompt');
    assert.match(await h.ok('browser_handle_dialog', { accept: true, promptText: 'Ada' }), /with "Ada"/);
    assert.equal(await evalPage(h, 'window.answer'), 'Ada');
    assert.equal((await h.call('browser_handle_dialog', { accept: true })).code, 'TARGET_NOT_FOUND');
  });

  it('reports a beforeunload dialog on navigation and proceeds once accepted', async () => {
    await go('/leave');
    await clickSel('#i'); // sticky user activation, required for beforeunload prompts
    const r = await h.call('browser_navigate', { url: `${srv.origin}/static` });
    assert.match(textOf(r), /Dialog open: beforeunload/);
    await h.ok('browser_handle_dialog', { accept: true });
    await h.ok('browser_wait', { text: 'Go', timeoutMs: 5000 });
  });

  it('reports a file chooser and fills it with browser_upload_file', async () => {
    await go('/upload');
    const r = await clickSel('#pick');
    assert.match(r.text, /File chooser open \(several files\)/);
    const file = join(tmpdir(), `ba-upload-${process.pid}.txt`);
    writeFileSync(file, 'hello');
    assert.match(await h.ok('browser_upload_file', { paths: [file] }), /Chose 1 file/);
    assert.equal(await evalPage(h, `document.getElementById('f').files[0].name`), `ba-upload-${process.pid}.txt`);
    assert.equal((await h.call('browser_upload_file', { paths: ['/nonexistent/x.txt'] })).code, 'INVALID_INPUT');
    assert.equal((await h.call('browser_upload_file', { paths: [file] })).code, 'TARGET_NOT_FOUND');
  });

  it('saves a download to the downloads folder and reports it', async () => {
    await go('/dl');
    const r = await clickSel('#a');
    assert.match(r.text, /Downloaded <page-content id=(\w+)>report.csv<\/page-content id=\1> \(8 bytes\)/);
    const path = join(h.downloadsDir, 'report.csv');
    assert.ok(existsSync(path));
    assert.equal(readFileSync(path, 'utf8'), 'a,b\n1,2\n');
  });

  it('follows window.open into the new tab and reports console errors once', async () => {
    await go('/popup');
    const e = await clickSel('#err');
    assert.match(e.text, /^Console error: .*boom here/m);
    assert.match(e.text, /^Console error: .*TypeError/m);
    const again = await clickSel('#o');
    assert.doesNotMatch(again.text, /Console error/);
    assert.match(again.text, /New tab opened: .*\/target<\/page-content id=\w+> — now the active tab/);
    const tabs = await h.ok('browser_tabs', { action: 'list' });
    assert.match(tabs, /^\d+\. \(active\) Target http:.*\/target \[id /m);
    await h.ok('browser_tabs', { action: 'close' });
  });
});
