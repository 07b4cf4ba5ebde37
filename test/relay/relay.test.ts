import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { freePort, knock, pairedChrome, type ChromeWithExtension } from '../helpers/relay';
import { startServer, type TestServer } from '../helpers/servers';
import { RELAY_PROTOCOL, RELAY_TOKEN_PREFIX, parsePairingCode } from '../../src/session/relayProtocol';

const PAGE = `<!doctype html><title>Shared page</title>
<button onclick="window.clicks = (window.clicks || 0) + 1; document.getElementById('out').textContent = 'clicks: ' + window.clicks">Count</button>
<label>Name <input id=name></label>
<button onclick="document.getElementById('out').textContent = 'confirmed: ' + confirm('Really delete?')">Delete</button>
<p id=out>none</p>
<a href="/next">Next page</a>`;

const refOf = (snap: string, name: RegExp) => {
  const line = snap.split('\n').find((l) => name.test(l));
  assert.ok(line, `no ${name} in:\n${snap}`);
  return /\[([^\]]+)\]/.exec(line!)![1];
};

const bigPage = (rows: number) => `<!doctype html><title>Big page</title><ul>${Array.from({ length: rows }, (_, i) => `<li><button>Row ${i}</button> text of row ${i}</li>`).join('')}</ul>`;

describe('relay: the companion Chrome extension in real Chromium, the real daemon, a real MCP client', function () {
  this.timeout(240_000);
  let srv: TestServer;
  let chrome: ChromeWithExtension;
  let env: Record<string, string>;
  let mcp: McpProc;
  let code: string;
  let port: number;
  let shared: { targetId: string; tabId: number };
  let unshared: { targetId: string; tabId: number };

  before(async () => {
    srv = await startServer({
      '/shared': PAGE,
      '/next': '<!doctype html><title>Next page</title><h1>Arrived</h1>',
      '/private': '<!doctype html><title>Private mail</title><p>secret inbox</p>',
      '/opener': '<!doctype html><title>Opener</title><a href="/popup" target="_blank">Open popup</a>',
      '/popup': '<!doctype html><title>Popup page</title><p>in the popup</p>',
      '/wipe': '<!doctype html><title>Other page</title><button onclick="document.getElementById(\'o\').textContent = \'wiped\'">Wipe</button><p id=o>intact</p>',
    });
    env = { ...daemonEnv(5000, 'direct'), BROWSER_AGENT_RELAY_PORT: String(await freePort()) };
    // The pairing a user gets from "Pair Chrome Extension" (the real daemon CLI, which turns relay mode
    // on), pasted into the side panel.
    ({ chrome, code, port } = await pairedChrome(env));
    shared = await chrome.open(`${srv.origin}/shared`);
    unshared = await chrome.open(`${srv.origin}/private`);
    // What the toolbar button does for the tab it was clicked in.
    await chrome.worker(`browserAgentRelay.share(${shared.tabId})`);
    mcp = await spawnMcp(env, ['--extension', '--allow-confirm-actions', '--audit-dir', 'off'], 'relay-test');
  });
  after(async () => {
    await mcp?.close().catch(() => {});
    await runDaemonCli(env, 'stop');
    await chrome?.stop();
    await srv?.close();
  });

  it('works in the shared tab: snapshot, click, type, a dialog, navigate', async () => {
    const snap = (await mcp.call('browser_snapshot')).text;
    assert.match(snap, /Shared page/);
    const click = await mcp.call('browser_click', { ref: refOf(snap, /button "Count"/) });
    assert.equal(click.isError, false, click.text);
    const typed = await mcp.call('browser_type', { ref: refOf(snap, /textbox "Name"/), text: 'Ada' });
    assert.equal(typed.isError, false, typed.text);
    const after = (await mcp.call('browser_snapshot')).text;
    assert.match(after, /clicks: 1/);
    assert.match(after, /Ada/);
    const del = await mcp.call('browser_click', { ref: refOf(after, /button "Delete"/) });
    assert.match(del.text, /Really delete\?/, del.text);
    const handled = await mcp.call('browser_handle_dialog', { accept: true });
    assert.equal(handled.isError, false, handled.text);
    assert.match((await mcp.call('browser_snapshot')).text, /confirmed: true/);
    const nav = await mcp.call('browser_navigate', { url: `${srv.origin}/next` });
    assert.equal(nav.isError, false, nav.text);
    assert.match((await mcp.call('browser_snapshot')).text, /Arrived/);
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
  });

  it('a ref of the page before a navigation gives STALE_REF and clicks nothing on the new page (issue 28)', async () => {
    const count = refOf((await mcp.call('browser_snapshot')).text, /button "Count"/);
    assert.equal((await mcp.call('browser_navigate', { url: `${srv.origin}/wipe` })).isError, false);
    const old = await mcp.call('browser_click', { ref: count });
    assert.equal(old.isError, true, old.text);
    assert.match(old.text, /^STALE_REF: Ref \S+ \(button "Count"\) is no longer on the page\. It was shown on the previous page/);
    const now = (await mcp.call('browser_snapshot')).text;
    assert.match(now, /intact/, 'nothing was clicked');
    assert.equal(refOf(now, /button "Wipe"/), count, 'the old number names "Wipe" here');
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
  });

  it('the same page gives the same snapshot through the relay as over a direct connection', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
    const port = new URL(chrome.browser.wsEndpoint).port;
    const direct = await spawnMcp(env, ['--no-daemon', '--cdp-url', `http://127.0.0.1:${port}`, '--audit-dir', 'off'], 'direct');
    try {
      // The direct server leaves the shared tab to the relay client (another Browser Agent works there)
      // and opens the same page in a tab of its own.
      const nav = await direct.call('browser_navigate', { url: `${srv.origin}/shared` });
      assert.equal(nav.isError, false, nav.text);
      // Fence nonces differ per call; everything else must match.
      const norm = (t: string) => t.replace(/id=[0-9a-f]+/g, 'id=N');
      const viaRelay = norm((await mcp.call('browser_snapshot')).text);
      const viaDirect = norm((await direct.call('browser_snapshot')).text);
      assert.match(viaRelay, /button "Count"/);
      assert.equal(viaRelay, viaDirect);
    } finally {
      await direct.close();
    }
  });

  it('never reaches a tab that is not shared', async () => {
    const list = (await mcp.call('browser_tabs', { action: 'list' })).text;
    assert.doesNotMatch(list, /Private mail|\/private/);
    const select = await mcp.call('browser_tabs', { action: 'select', id: unshared.targetId });
    assert.equal(select.isError, true, select.text);
    assert.match(select.text, /No tab with id/, select.text);
    assert.doesNotMatch((await mcp.call('browser_snapshot')).text, /secret inbox/);
  });

  it('the real daemon refuses a web Origin and a wrong token on its relay endpoint', async () => {
    const { token } = parsePairingCode(code)!;
    assert.equal(await knock(port, 'https://evil.example', [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${token}`]), 403);
    assert.equal(await knock(port, `chrome-extension://${chrome.extensionId}`, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${'f'.repeat(64)}`]), 401);
    assert.equal(await knock(port, `chrome-extension://${chrome.extensionId}`, [RELAY_PROTOCOL]), 401);
    // The extension is still connected (a refused knock does not replace it).
    assert.equal((await chrome.worker<{ state: string }>('browserAgentRelay.state()')).state, 'connected');
  });

  it('Chrome stops the service worker between steps: the task goes on after reconnect, no click repeated', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
    let snap = (await mcp.call('browser_snapshot')).text;
    assert.equal((await mcp.call('browser_click', { ref: refOf(snap, /button "Count"/) })).isError, false);
    await chrome.stopWorkers();
    // The next step's calls wait at the daemon; the worker wakes (here: the user opens the side panel) and reconnects.
    const next = mcp.call('browser_snapshot');
    setTimeout(() => void chrome.openPanel(), 300);
    snap = (await next).text;
    assert.match(snap, /clicks: 1/);
    assert.equal((await mcp.call('browser_click', { ref: refOf(snap, /button "Count"/) })).isError, false);
    assert.match((await mcp.call('browser_snapshot')).text, /clicks: 2/);
    assert.equal(await chrome.worker<number>(`chrome.tabs.get(${shared.tabId}).then(() => 1)`), 1);
  });

  it('Chrome stops the service worker while a call runs: the call is not run again after reconnect', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
    // A call that takes effect at once and answers 2 s later; the worker is stopped in between.
    const running = mcp.call('browser_evaluate', { script: 'window.runs = (window.runs || 0) + 1; await new Promise((r) => setTimeout(r, 2000)); window.runs' });
    await new Promise((r) => setTimeout(r, 700));
    await chrome.stopWorkers();
    await chrome.openPanel();
    const r = await running;
    assert.equal(r.isError, true, r.text);
    // Says what happened, which call lost its answer, and what to do.
    assert.match(r.text, /^RELAY_INTERRUPTED: browser_evaluate was cut off: Chrome stopped the Browser Agent extension's service worker while it ran \(Runtime\.(evaluate|callFunctionOn) got no answer\)\. It was not run again/, r.text);
    assert.match(r.text, /Hint: .*snapshot/);
    const runs = await mcp.call('browser_evaluate', { script: 'window.runs' });
    assert.equal(runs.isError, false, runs.text);
    assert.match(runs.text, /\b1\b/);
    assert.doesNotMatch(runs.text, /\b2\b/);
  });

  it('Chrome stops the service worker while a snapshot (a read) runs: the snapshot is run again and answers', async () => {
    const log = () => readFileSync(join(env.BROWSER_AGENT_DAEMON_DIR, 'daemon.log'), 'utf8');
    // A page big enough that reading it takes a while: the worker is stopped halfway through. A quiet,
    // fast machine reads 12,000 rows in under 400 ms, so the page grows until a read takes longer.
    let t0 = 0;
    let ms = 0;
    let whole!: Awaited<ReturnType<typeof mcp.call>>;
    for (let rows = 12_000; ; rows *= 2) {
      srv.route('/big', bigPage(rows));
      await mcp.call('browser_navigate', { url: `${srv.origin}/big?rows=${rows}` });
      t0 = Date.now();
      whole = await mcp.call('browser_snapshot');
      ms = Date.now() - t0;
      assert.equal(whole.isError, false, whole.text);
      if (ms > 400 || rows >= 96_000) break;
    }
    assert.ok(ms > 400, `the snapshot took only ${ms} ms: too fast to stop the worker in the middle`);
    const before = log().length;
    t0 = Date.now();
    const snap = mcp.call('browser_snapshot');
    await new Promise((r) => setTimeout(r, ms / 3));
    await chrome.stopWorkers();
    await chrome.openPanel();
    const r = await snap;
    // The daemon saw a call of the snapshot lose its answer (a call that is not a plain read fails there)…
    assert.match(log().slice(before), /Relay: unanswered when the worker went away: sent again \[.*?\], failed as interrupted \[".+\]/, `nothing was in flight ${Math.round(ms / 3)} ms into a ${ms} ms snapshot`);
    // …and the tool, which only reads, ran again: the whole page, no error.
    assert.equal(r.isError, false, r.text);
    // (The cut-off read numbered the page's elements too, so the new refs differ; they work.)
    // Longer ref numbers fit fewer lines in the token budget: compare the first 200 lines.
    const norm = (t: string) => t.replace(/id=[0-9a-f]+/g, 'id=N').replace(/\[\d+\]/g, '[N]').split('\n').slice(0, 200).join('\n');
    assert.equal(norm(r.text), norm(whole.text));
    assert.match(r.text, /button "Row 150"/);
    const click = await mcp.call('browser_click', { ref: refOf(r.text, /button "Row 3"/) });
    assert.equal(click.isError, false, click.text);
  });

  it('the side panel lists the session, its tab and current step, and Stop ends the current call', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/shared` });
    const running = mcp.call('browser_evaluate', { script: 'await new Promise((r) => setTimeout(r, 20000)); "finished"' });
    type View = { sessions: { id: string; client: string; tabs: number[]; step?: string }[] };
    let view: View | undefined;
    // Short calls of the same method come first (the tool's own checks): let the long one be the one waited on.
    await new Promise((r) => setTimeout(r, 1500));
    await until(async () => {
      view = await chrome.worker<View>('browserAgentRelay.state()');
      return !!view.sessions.find((s) => s.step === 'Runtime.evaluate');
    }, 10_000, 'the side panel to show the running step');
    const session = view!.sessions.find((s) => s.step === 'Runtime.evaluate')!;
    assert.equal(session.client, 'MCP: relay-test');
    assert.deepEqual(session.tabs, [shared.tabId]);
    const t0 = Date.now();
    await chrome.worker(`browserAgentRelay.stop(${JSON.stringify(session.id)})`);
    const r = await running;
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /Stopped by the user/);
    assert.ok(Date.now() - t0 < 10_000, 'Stop ended the call long before it would have finished');
    // The session goes on.
    assert.match((await mcp.call('browser_snapshot')).text, /Shared page/);
  });

  it('a popup the shared page opens is shared and the agent works in it; a tab opened beside it is not', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/opener` });
    const snap = (await mcp.call('browser_snapshot')).text;
    const click = await mcp.call('browser_click', { ref: refOf(snap, /link "Open popup"/) });
    assert.equal(click.isError, false, click.text);
    await until(async () => /Popup page/.test((await mcp.call('browser_tabs', { action: 'list' })).text), 10_000, 'the popup to show up for the agent');
    // A tab someone else opens while the shared tab is in front: Chrome gives it that tab as opener.
    const beside = await chrome.open(`${srv.origin}/private`);
    await new Promise((r) => setTimeout(r, 1500));
    const st = await chrome.worker<{ shared: { tabId: number; url: string }[] }>('browserAgentRelay.state()');
    assert.ok(!st.shared.some((t) => t.tabId === beside.tabId), JSON.stringify(st.shared));
    assert.ok(st.shared.some((t) => t.url.endsWith('/popup')), JSON.stringify(st.shared));
    for (const t of st.shared) if (t.tabId !== shared.tabId) await chrome.worker(`browserAgentRelay.unshare(${t.tabId})`);
    await mcp.call('browser_tabs', { action: 'select', id: shared.targetId });
  });

  it('unsharing detaches at once: the tab is gone for the agent', async () => {
    // The side panel pages the tests opened (from the shared tab) were never shared.
    const before = await chrome.worker<{ shared: { tabId: number }[] }>('browserAgentRelay.state()');
    assert.deepEqual(before.shared.map((t) => t.tabId), [shared.tabId]);
    await chrome.worker(`browserAgentRelay.unshare(${shared.tabId})`);
    const attached = await chrome.worker<boolean>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.tabId === ${shared.tabId}).attached)`);
    assert.equal(attached, false);
    // The detach reaches the agent as a target event through the relay and the daemon: bounded, not instant.
    await until(async () => !/Shared page/.test((await mcp.call('browser_tabs', { action: 'list' })).text), 5000, 'the unshared tab to leave the agent\'s tab list');
  });
});
