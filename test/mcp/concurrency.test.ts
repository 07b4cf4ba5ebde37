import assert from 'node:assert/strict';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

/** Each click is reported to the server with the tab's own name, so we see where every click landed. */
const COUNTER = `<!doctype html><title>Counter</title><h1 id=who></h1><button id=b>Count</button><p id=n>0</p>
<script>
  const who = new URLSearchParams(location.search).get('who');
  document.getElementById('who').textContent = 'Tab ' + who;
  document.title = 'Counter ' + who;
  let n = 0;
  document.getElementById('b').addEventListener('click', () => {
    document.getElementById('n').textContent = String(++n);
    fetch('/hit?who=' + who + '&n=' + n);
  });
</script>`;

function refOf(snapshot: string, name: string): string {
  const m = new RegExp(`\\[(\\d+)\\] button "${name}"`).exec(snapshot);
  assert.ok(m, `a ref for ${name} in:\n${snapshot}`);
  return m[1];
}

describe('mcp: several clients and concurrent calls', function () {
  this.timeout(180_000);
  let srv: TestServer;
  const hits: string[] = [];
  before(async () => {
    srv = await startServer({
      '/counter': COUNTER,
      '/hit': (req, res) => {
        hits.push(new URL(req.url!, 'http://x').searchParams.get('who')!);
        res.writeHead(204);
        res.end();
      },
      '/big': `<!doctype html><title>Big</title>${Array.from({ length: 300 }, (_, i) => `<p>Paragraph ${i} with some words</p><a href="#${i}">Link ${i}</a><button>Button ${i}</button>`).join('')}`,
    });
  });
  after(() => srv.close());

  describe('two servers attached to one browser', () => {
    let ext: ExternalBrowser;
    let a: McpProcess;
    let b: McpProcess;
    before(async () => {
      ext = await startExternalChromium();
      [a, b] = await Promise.all([startMcp(['--cdp-url', `http://127.0.0.1:${ext.port}`, '--allow-confirm-actions']), startMcp(['--cdp-url', `http://127.0.0.1:${ext.port}`, '--allow-confirm-actions'])]);
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await ext?.stop();
    });

    it('4 rounds of simultaneous clicks: every click lands in its own tab, no timeouts', async () => {
      // Started at the same moment: they must still end up in different tabs.
      const [na, nb] = await Promise.all([a.call('browser_navigate', { url: `${srv.url}counter?who=A` }), b.call('browser_navigate', { url: `${srv.url}counter?who=B` })]);
      assert.equal(na.isError, false, na.text);
      assert.equal(nb.isError, false, nb.text);
      const [sa, sb] = await Promise.all([a.call('browser_snapshot'), b.call('browser_snapshot')]);
      assert.match(sa.text, /Tab A/);
      assert.match(sb.text, /Tab B/);
      const [ra, rb] = [refOf(sa.text, 'Count'), refOf(sb.text, 'Count')];
      hits.length = 0;
      for (let round = 1; round <= 4; round++) {
        const [ca, cb] = await Promise.all([a.call('browser_click', { ref: ra }), b.call('browser_click', { ref: rb })]);
        assert.equal(ca.isError, false, `round ${round}, A: ${ca.text}`);
        assert.equal(cb.isError, false, `round ${round}, B: ${cb.text}`);
      }
      const [ea, eb] = await Promise.all([a.call('browser_evaluate', { script: 'document.getElementById("n").textContent' }), b.call('browser_evaluate', { script: 'document.getElementById("n").textContent' })]);
      assert.match(ea.text, /"4"/, `A's page counted: ${ea.text}`);
      assert.match(eb.text, /"4"/, `B's page counted: ${eb.text}`);
      for (let i = 0; i < 50 && hits.length < 8; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual([...hits].sort(), ['A', 'A', 'A', 'A', 'B', 'B', 'B', 'B']);
    });

    it('both tabs render: screenshots of both at once come back (a tab hidden behind the other would never paint)', async () => {
      const shots = await Promise.all([a.call('browser_screenshot', {}, 20_000), b.call('browser_screenshot', {}, 20_000)]);
      for (const [i, r] of shots.entries()) {
        assert.equal(r.isError, false, `${i ? 'B' : 'A'}: ${r.text}`);
        assert.equal(r.images, 1);
      }
    });
  });

  it('20 concurrent read-only calls (snapshot, screenshot, find) on one server are all answered', async () => {
    const mcp = await startMcp(HEADLESS_ARGS);
    try {
      await mcp.call('browser_navigate', { url: `${srv.url}big` });
      const calls = Array.from({ length: 20 }, (_, i) => {
        const [name, args] = i % 3 === 0 ? ['browser_snapshot', {}] : i % 3 === 1 ? ['browser_screenshot', {}] : ['browser_find', { query: `Button ${i}` }];
        const t0 = Date.now();
        return mcp.call(name as string, args).then((r) => ({ name, r, ms: Date.now() - t0 }));
      });
      const done = await Promise.all(calls);
      for (const { name, r } of done) assert.equal(r.isError, false, `${name}: ${r.text}`);
      assert.equal(done.filter((d) => d.name === 'browser_screenshot').every((d) => d.r.images === 1), true);
      const ms = done.map((d) => d.ms).sort((x, y) => x - y);
      console.log(`      20 concurrent calls: median ${ms[10]} ms, max ${ms[19]} ms`);
    } finally {
      await mcp.close();
    }
  });
});
