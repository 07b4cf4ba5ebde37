// Issue 18 in the real host, as a person does it: F1 → "Browser Agent: Pair Chrome Extension" shows the
// pairing code and turns the relay on (the daemon the extension starts listens on 127.0.0.1 with that
// token), *Copy Pairing Code* puts it on the clipboard; the code is pasted into the companion extension's
// side panel in a real Chromium with the built extension loaded (--load-extension, new headless); a tab is
// shared; "Attach to Browser…" lists *Chrome (Browser Agent extension)* and attaches through it; tools
// act in the shared tab (checked over our own CDP connection); the live view follows a tab the agent opens, and
// closing it leaves that tab drawing; Close Browser only detaches.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromeWithExtension, knock, type ChromeWithExtension } from '../../helpers/relay';
import { startServer, type TestServer } from '../../helpers/servers';
import type { CdpSession } from '../../../src/session/cdp';
import { RELAY_PROTOCOL, RELAY_TOKEN_PREFIX, parsePairingCode } from '../../../src/session/relayProtocol';
import { env, helper, quickPickRows, teardown, until, webviewFrame, Workbench } from './workbench';

const PAGE = `<!doctype html><title>Relay page</title><h1 style="font-size:48px">Relay page</h1>
<button onclick="document.getElementById('out').textContent = 'clicked ' + (++window.n || (window.n = 1))">Press me</button>
<p id=out>not clicked</p>`;
/** A page that changes every animation frame: a screencast of it keeps sending frames. */
const MOVING = `<!doctype html><title>Second page</title><button>Go</button><p id=n style="font:48px sans-serif">0</p>
<script>let n = 0; const f = () => { document.getElementById('n').textContent = String(++n); requestAnimationFrame(f); }; requestAnimationFrame(f);</script>`;
const RELAY_ROW = /Chrome \(Browser Agent extension\)/;

describe('UI: pair the Chrome extension and attach through it (real Chromium with the extension loaded)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;
  let chrome: ChromeWithExtension | undefined;
  let code = '';
  let extensionFolder = '';
  let shared: { targetId: string; tabId: number };
  let panel: CdpSession | undefined;

  const shot = async (s: CdpSession, name: string) => {
    // A background tab paints no frame to capture: bring the panel's tab to the front first.
    await s.send('Page.bringToFront');
    const { data } = await s.send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(join(env.artifacts(), `relay-chrome-${name}.png`), Buffer.from(data, 'base64'));
  };
  const inPanel = async <T>(expression: string): Promise<T> => (await panel!.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })).result.value as T;

  before(async () => {
    server = await startServer({ '/relay': PAGE, '/second': MOVING });
    wb = await Workbench.open('relay');
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.url()).origin });
  });
  teardown(() => wb, {
    cleanup: async () => {
      await chrome?.stop();
      await server?.close();
    },
  });

  it('before pairing, "Attach to Browser…" does not offer the extension', async () => {
    await wb.runCommand('Browser Agent: Attach to Browser…', { opensQuickInput: true });
    const rows = await quickPickRows(wb);
    assert.ok(!rows.some((r) => RELAY_ROW.test(r)), rows.join(' | '));
  });

  it('F1 → "Pair Chrome Extension": the code and "waiting" show, the relay listens with that token, Copy puts it on the clipboard', async () => {
    await wb.runCommand('Browser Agent: Pair Chrome Extension');
    const box = await wb.modal(60_000);
    const text = await box.innerText();
    await wb.screenshot('pair-dialog');
    const m = /\b(\d{2,5}-[0-9a-f]{64})\b/.exec(text);
    assert.ok(m, `no pairing code in the dialog: ${text}`);
    code = m![1];
    const { port, token } = parsePairingCode(code)!;
    assert.match(text, new RegExp(`waiting for the extension on 127\\.0\\.0\\.1:${port}`), text);
    // Where the extension to load is: a copy of the one this VS Code extension ships, in a place that
    // survives its updates (next to the pairing: here the run's daemon folder).
    const folder = /Load unpacked → (.+?)\.\n/.exec(text)?.[1];
    assert.equal(folder, join(process.env.BROWSER_AGENT_DAEMON_DIR!, 'chrome-extension'), text);
    extensionFolder = folder!;
    // The daemon the extension started listens on that port, for that token and a chrome-extension Origin only.
    const origin = `chrome-extension://${'a'.repeat(32)}`;
    assert.equal(await knock(port, origin, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`]), 101);
    assert.equal(await knock(port, origin, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${'0'.repeat(64)}`]), 401);
    assert.equal(await knock(port, 'http://127.0.0.1', [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`]), 403);
    await box.locator('.monaco-button').filter({ hasText: /Copy Pairing Code/ }).click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    const clip = await until('the clipboard to hold the code', async () => (await wb.page.evaluate(() => navigator.clipboard.readText())) || undefined);
    assert.equal(clip, code);
  });

  it('the code pasted into the extension side panel connects it; a tab is shared', async () => {
    // "Load unpacked" from the folder the dialog named.
    chrome = await chromeWithExtension(extensionFolder);
    // The side panel page, as a tab (headless Chrome has no side panel UI): the person pastes and presses Pair.
    const panelTarget = await chrome.openPanel();
    panel = chrome.conn.session((await chrome.conn.send('Target.attachToTarget', { targetId: panelTarget, flatten: true })).sessionId);
    await panel.send('Runtime.enable');
    await until('the side panel to render', () => inPanel<boolean>(`document.getElementById('state').textContent !== '…'`));
    assert.match(await inPanel<string>(`document.getElementById('state').textContent`), /not paired/);
    await shot(panel, '01-not-paired');
    await inPanel(`document.getElementById('code').focus()`);
    await panel.send('Input.insertText', { text: code });
    await inPanel(`document.getElementById('pair').click()`);
    await until('the side panel to say connected', async () => (await inPanel<string>(`document.getElementById('state').textContent`)) === 'connected', 20_000);
    assert.match(await inPanel<string>(`document.getElementById('detail').textContent`), new RegExp(`127\\.0\\.0\\.1:${parsePairingCode(code)!.port}`));
    // What the toolbar button does in the tab it is clicked in.
    shared = await chrome.open(`${server.origin}/relay`);
    await chrome.worker(`browserAgentRelay.share(${shared.tabId})`);
    await until('the side panel to list the shared tab', async () => /Relay page/.test(await inPanel<string>(`document.getElementById('tabs').textContent`)));
    await shot(panel, '02-connected-shared');
  });

  it('"Attach to Browser…" lists the extension; choosing it attaches to the shared tab, and tools act there', async () => {
    await wb.runCommand('Browser Agent: Attach to Browser…', { opensQuickInput: true });
    const rows = await until('the extension row', async () => {
      const r = await quickPickRows(wb);
      return r.some((x) => RELAY_ROW.test(x)) && r;
    });
    await wb.screenshot('attach-picker');
    assert.ok(rows.some((x) => RELAY_ROW.test(x) && /tabs you share/.test(x)), rows.join(' | '));
    await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: RELAY_ROW }).first().click();
    await wb.statusItem(/Relay page/).waitFor({ state: 'visible', timeout: 60_000 });
    await wb.screenshot('attached-through-extension');
    // Says where the agent works: your own Chrome, not a browser it launched or a shared daemon browser.
    assert.equal(await wb.statusText(), 'Your Chrome: Relay page');
    const probe = await helper(wb, { probe: 'document.title' });
    assert.equal(probe.value, 'Relay page');
    assert.equal(probe.url, `${server.origin}/relay`);
    const snap = await helper(wb, { tool: 'browser_snapshot', input: {} });
    assert.equal(snap.status, 'ok', snap.text);
    const ref = /\[([^\]]+)\] button "Press me"/.exec(snap.text ?? '')?.[1];
    assert.ok(ref, snap.text);
    const click = await helper(wb, { tool: 'browser_click', input: { ref } });
    assert.equal(click.status, 'ok', click.text);
    // Checked in the user's Chrome itself, over a connection of the test's own.
    const tab = chrome!.conn.session((await chrome!.conn.send('Target.attachToTarget', { targetId: shared.targetId, flatten: true })).sessionId);
    const out = await tab.send('Runtime.evaluate', { expression: `document.getElementById('out').textContent`, returnByValue: true });
    assert.equal(out.result.value, 'clicked 1');
    // The side panel shows this window's session on the shared tab.
    await until('the side panel to list the VS Code session', async () => /VS Code/.test(await inPanel<string>(`document.getElementById('sessions').textContent`)), 10_000);
    await shot(panel!, '03-session');
  });

  it('the live view shows a tab the agent opens; closing the live view leaves that background tab drawing at full rate', async () => {
    await wb.runCommand('Browser Agent: Open Live View');
    const live = await webviewFrame(wb, '#live-frame');
    await until('a frame of the shared tab', () => live.locator('#live-frame').evaluate((i: HTMLImageElement) => !i.hidden && i.naturalWidth > 0));
    const opened = await helper(wb, { tool: 'browser_tabs', input: { action: 'new', url: `${server.origin}/second` } });
    assert.equal(opened.status, 'ok', opened.text);
    try {
      await until('the live view on the new tab', async () => /\/second/.test(await live.locator('#url').innerText()));
      await live.locator('#live-frame').evaluate((i: HTMLImageElement) => {
        const w = window as unknown as { shown: number };
        w.shown = 0;
        i.addEventListener('load', () => w.shown++);
      });
      const seen = await until('frames of the new tab in the live view', async () => {
        const v = await live.locator('#live-frame').evaluate((i: HTMLImageElement) => ({ shown: (window as unknown as { shown: number }).shown, width: i.naturalWidth }));
        return v.shown >= 3 && v;
      });
      assert.ok(seen.width >= 400, `the live view's picture is ${seen.width} pixels wide`);
      await wb.screenshot('live-view-agent-tab');
      // A click: from then on Chromium draws a tab that is not its window's selected one about once a second,
      // unless something keeps it drawing (src/session/keepDrawing.ts).
      const snap = await helper(wb, { tool: 'browser_snapshot', input: {} });
      const ref = /\[([^\]]+)\] button "Go"/.exec(snap.text ?? '')?.[1];
      assert.ok(ref, snap.text);
      assert.equal((await helper(wb, { tool: 'browser_click', input: { ref } })).status, 'ok');
      // The person closes the live view: its stopScreencast went to the tab's one debugger, which the relay shares
      // with keepDrawing, and ended keepDrawing's screencast too (src/session/relayScreencasts.ts).
      await wb.closeActiveEditor();
      await new Promise((r) => setTimeout(r, 1000));
      const second = (await chrome!.conn.send('Target.getTargets')).targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/second'));
      assert.ok(second, 'the agent\'s tab');
      const page = chrome!.conn.session((await chrome!.conn.send('Target.attachToTarget', { targetId: second.targetId, flatten: true })).sessionId);
      const raf = await page.send('Runtime.evaluate', { expression: 'new Promise((r) => { let n = 0; const end = performance.now() + 500; const f = () => (performance.now() < end ? (n++, requestAnimationFrame(f)) : r(n)); requestAnimationFrame(f); })', awaitPromise: true, returnByValue: true });
      await chrome!.conn.send('Target.detachFromTarget', { sessionId: page.id }).catch(() => undefined);
      assert.ok(raf.result.value >= 8, `after the live view closed, the agent's background tab drew ${raf.result.value} frames in 500 ms (about 30 at full rate)`);
    } finally {
      // The agent's tab goes either way: the later tests count the shared tabs.
      await helper(wb, { tool: 'browser_tabs', input: { action: 'close' } });
    }
  });

  it('Close Browser only detaches: the shared tab and the user\'s Chrome stay', async () => {
    await wb.runCommand('Browser Agent: Close Browser');
    await wb.statusItem(/Browser: none/).waitFor({ state: 'visible', timeout: 30_000 });
    const { targetInfos } = await chrome!.conn.send('Target.getTargets');
    assert.ok(targetInfos.some((t) => t.targetId === shared.targetId), 'the shared tab is still open');
    const st = await chrome!.worker<{ state: string; shared: { tabId: number }[] }>('browserAgentRelay.state()');
    assert.equal(st.state, 'connected');
    assert.deepEqual(st.shared.map((t) => t.tabId), [shared.tabId]);
  });

  it('"New Code": the old token stops working at once, the side panel says why, the new code connects again', async () => {
    const old = parsePairingCode(code)!;
    await wb.runCommand('Browser Agent: Pair Chrome Extension');
    let box = await wb.modal(60_000);
    assert.match(await box.innerText(), /The extension is connected \(1 shared tab\(s\)\)/);
    await box.locator('.monaco-button').filter({ hasText: /New Code/ }).click();
    const text = await until('a dialog with a new code', async () => {
      box = await wb.modal(10_000);
      const t = await box.innerText();
      const c = /\b(\d{2,5}-[0-9a-f]{64})\b/.exec(t)?.[1];
      return c && c !== code && t;
    });
    code = /\b(\d{2,5}-[0-9a-f]{64})\b/.exec(text)![1];
    // The extension connected with the old code was let go: the dialog must not say it is connected.
    assert.match(text, /waiting for the extension/, text);
    await wb.screenshot('new-code');
    await box.locator('.monaco-button').filter({ hasText: /^\s*Cancel\s*$/ }).click();
    const origin = `chrome-extension://${chrome!.extensionId}`;
    assert.equal(await knock(old.port, origin, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${old.token}`]), 401);
    await until('the side panel to say the code was replaced', async () => (await inPanel<string>(`document.getElementById('state').textContent`)) === 'not paired', 15_000);
    assert.match(await inPanel<string>(`document.getElementById('detail').textContent`), /pairing code was replaced/);
    await shot(panel!, '04-code-replaced');
    await inPanel(`document.getElementById('code').focus()`);
    await panel!.send('Input.insertText', { text: code });
    await inPanel(`document.getElementById('pair').click()`);
    await until('the side panel to say connected again', async () => (await inPanel<string>(`document.getElementById('state').textContent`)) === 'connected', 20_000);
  });
});
