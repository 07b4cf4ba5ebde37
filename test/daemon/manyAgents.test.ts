// Many agents at once (issue 33): three clients — standing in for the chat panel, Copilot and an external MCP
// client — work in parallel in one browser through the session daemon. Each works in its own tab; a long action
// of one (an 8 s wait, then a page that takes 8 s to answer) holds up neither of the others. With the default
// transport for an attached browser (proxy) the browser sees one DevTools connection for all of them (a person's
// Chrome asks "Allow remote debugging?" once per connection); with the direct transport one more per client.
// Real parts: the daemon and MCP server bins, the SDK client, Chromium behind a real TCP proxy that counts
// WebSocket handshakes, pages on 127.0.0.1.
import assert from 'node:assert/strict';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { daemonEnv, runDaemonCli, spawnMcp, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

const COUNTER = `<!doctype html><title>Counter</title><h1 id=who></h1><button id=b>Count</button><p id=n>0</p>
<script>
  const who = new URLSearchParams(location.search).get('who');
  document.getElementById('who').textContent = 'Tab of ' + who;
  let n = 0;
  document.getElementById('b').addEventListener('click', () => {
    document.getElementById('n').textContent = 'count ' + String(++n);
    fetch('/hit?who=' + who);
  });
</script>`;

const LONG_MS = 8000;

interface Call {
  who: string;
  tool: string;
  start: number;
  end: number;
}

describe('daemon: three agents at once in one browser, none held up by another (real daemon, three MCP servers, real Chromium)', function () {
  this.timeout(240_000);
  let srv: TestServer;
  let ext: ExternalBrowser;
  let proxy: TcpProxy;
  const hits: string[] = [];
  const procs: McpProc[] = [];

  before(async () => {
    srv = await startServer({
      '/counter': COUNTER,
      '/hit': (req, res) => {
        hits.push(new URL(req.url!, 'http://x').searchParams.get('who')!);
        res.writeHead(204);
        res.end();
      },
      // A slow site: the answer comes after LONG_MS.
      '/slow': (_req, res) => void setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Slow</title><p>Finally here</p>');
      }, LONG_MS),
    });
    ext = await startExternalChromium();
    proxy = await startTcpProxy(ext.port);
  });
  after(async () => {
    for (const p of procs) await p.close().catch(() => undefined);
    await proxy?.close();
    await ext?.stop();
    await srv?.close();
  });

  for (const transport of ['default', 'direct'] as const)
  it(`${transport}: chat panel, Copilot and an external client each in their own tab; 8 s actions of one hold up neither other; ${transport === 'default' ? 'one connection' : 'a connection each'}`, async () => {
    const env = daemonEnv(1500, transport === 'default' ? undefined : transport);
    const before = proxy.websockets;
    hits.length = 0;
    const args = ['--cdp-url', `http://127.0.0.1:${proxy.port}`, '--attach-tab', 'new', '--audit-dir', 'off', '--allow-confirm-actions'];
    const names = ['chat', 'copilot', 'external'] as const;
    const agents = await Promise.all(names.map((n) => spawnMcp(env, args, n)));
    procs.push(...agents);
    const calls: Call[] = [];
    const call = async (i: number, tool: string, a: Record<string, unknown> = {}) => {
      const start = Date.now();
      const r = await agents[i].call(tool, a);
      calls.push({ who: names[i], tool, start, end: Date.now() });
      assert.equal(r.isError, false, `${names[i]} ${tool}: ${r.text}`);
      return r.text;
    };
    await Promise.all(names.map((n, i) => call(i, 'browser_navigate', { url: `${srv.origin}/counter?who=${n}` })));

    // The chat agent's long actions, one after the other; the two others click away meanwhile.
    const windows: { what: string; start: number; end: number }[] = [];
    let longDone = false;
    const long = (async () => {
      let start = Date.now();
      await call(0, 'browser_wait', { timeMs: LONG_MS });
      windows.push({ what: `a ${LONG_MS} ms wait`, start, end: Date.now() });
      start = Date.now();
      const text = await call(0, 'browser_navigate', { url: `${srv.origin}/slow` });
      windows.push({ what: 'a page answering after 8 s', start, end: Date.now() });
      assert.match(text, /Title: Slow/);
      longDone = true;
    })();
    const clicks = [0, 0, 0];
    const busy = async (i: number) => {
      while (!longDone) {
        const snap = await call(i, 'browser_snapshot');
        assert.match(snap, new RegExp(`Tab of ${names[i]}`), `${names[i]} sees its own tab`);
        const ref = /\[(\d+)\] button "Count"/.exec(snap)?.[1];
        assert.ok(ref, snap);
        const after = await call(i, 'browser_click', { ref });
        clicks[i]++;
        assert.match(after, new RegExp(`count ${clicks[i]}`), `${names[i]}'s click counted in its own tab`);
      }
    };
    await Promise.all([long, busy(1), busy(2)]);

    // Neither other agent waited on the long actions: several calls of each began and ended inside each window,
    // and none of their calls took as long as a long action.
    for (const w of windows) {
      for (const who of ['copilot', 'external']) {
        const inside = calls.filter((c) => c.who === who && c.start >= w.start && c.end <= w.end);
        assert.ok(inside.length >= 4, `${who} made ${inside.length} calls during ${w.what} of the chat agent (at least 4 expected)`);
      }
    }
    // Calls of the others that ran while a long action did (a blocked call would take as long as it).
    const theirs = calls.filter((c) => c.who !== 'chat' && windows.some((w) => c.end > w.start && c.start < w.end));
    const slowest = theirs.reduce((a, c) => (c.end - c.start > a.end - a.start ? c : a));
    const t0 = calls[0].start;
    assert.ok(slowest.end - slowest.start < LONG_MS * 0.75, `the slowest call of the other agents: ${slowest.who} ${slowest.tool} took ${slowest.end - slowest.start} ms from ${slowest.start - t0} ms (bound ${LONG_MS * 0.75} ms); long actions ${JSON.stringify(windows.map((w) => [w.start - t0, w.end - t0]))}`);

    // Every click landed in its agent's own tab (the page reports it with the tab's name), and only there.
    await new Promise((r) => setTimeout(r, 300));
    for (const i of [1, 2]) assert.equal(hits.filter((h) => h === names[i]).length, clicks[i], `${names[i]}'s clicks`);
    assert.equal(hits.filter((h) => h === 'chat').length, 0);

    // Three sessions, three different tabs; one DevTools connection to the browser for all of them.
    const st = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
    assert.equal(st.sessions.length, 3);
    const tabs = st.sessions.flatMap((s: { tabs: { id: string }[] }) => s.tabs.map((t) => t.id));
    assert.equal(new Set(tabs).size, 3, 'each agent in a tab of its own');
    // By default one DevTools connection for the three agents (the daemon's), so a person's Chrome asks once.
    // The direct transport (faster by a hop per CDP call) adds one per client.
    const seen = proxy.websockets - before;
    assert.equal(seen, transport === 'default' ? 1 : 1 + 3, `DevTools connections the browser saw: ${seen}`);
    for (const a of agents.splice(0)) await a.close().catch(() => undefined);
    procs.length = 0;
  });
});
