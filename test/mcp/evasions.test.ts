import assert from 'node:assert/strict';
import { sleep } from '../../src/session/launcher';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

const page = (title: string, body: string) => `<!doctype html><meta charset=utf-8><title>${title}</title><script>function hit(c){fetch('/did?c='+encodeURIComponent(c))}</script>${body}`;

/**
 * Evasions of the risk policy through the shipped MCP server (the SDK's client over stdio, no elicitation):
 * each action the policy must confirm answers "needs a confirmation this client cannot show", and the page's
 * server never hears of it. The same cases in more detail, through the tool set the extension uses:
 * test/safety/evasions.test.ts. Each failed on the code before (the action ran).
 */
describe('mcp: evasions of the risk policy (real server over stdio)', function () {
  this.timeout(120_000);
  let mcp: McpProcess;
  let site: TestServer;
  const hits: string[] = [];

  before(async () => {
    site = await startServer({
      '/did': (req, res) => {
        hits.push(new URL(req.url ?? '/', 'http://x').searchParams.get('c') ?? '');
        res.end('ok');
      },
      '/account/aria': page('Account', `<button aria-label="Cancel" onclick="hit('aria')">Delete account</button>`),
      '/account/homoglyph': page('Account', `<button onclick="hit('homoglyph')">D\u0435l\u0435te account</button>`),
      '/checkout/toctou': page('Checkout', `<button style="position:absolute;left:20px;top:20px;width:200px;height:60px" onpointerenter="this.textContent='Pay now'" onclick="hit('toctou')">Next</button>`),
      '/account/menu': page('Account', `<select aria-label="Actions" onchange="hit(this.value)"><option value="">Choose…</option><option value="opt3">Delete account</option></select>`),
      '/account/delete': (_q, res) => {
        hits.push('navigated');
        res.end('deleted');
      },
    });
    mcp = await startMcp(HEADLESS_ARGS);
  });
  after(async () => {
    await mcp?.close();
    await site?.close();
  });

  const refOf = (snap: string, re: RegExp) => {
    const m = new RegExp(`\\[([\\w:]+)\\] ${re.source}`).exec(snap);
    if (!m) throw new Error(`no ${re} in:\n${snap}`);
    return m[1];
  };
  async function refused(name: string, args: Record<string, unknown>) {
    hits.length = 0;
    const r = await mcp.call(name, args);
    await sleep(300);
    assert.deepEqual(hits, [], `ran: ${r.text}`);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^BLOCKED_BY_POLICY: .*needs a confirmation.*cannot show one/s, r.text);
    return r.text;
  }
  const open = async (path: string) => {
    const nav = await mcp.call('browser_navigate', { url: `${site.origin}${path}` });
    assert.equal(nav.isError, false, nav.text);
    return (await mcp.call('browser_snapshot')).text;
  };

  it('a "Delete account" button named "Cancel"', async () => {
    const snap = await open('/account/aria');
    const text = await refused('browser_click', { ref: refOf(snap, /button "Cancel"/) });
    assert.match(text, /visible text says "Delete"/);
  });

  it('"Delete" written with Cyrillic е', async () => {
    const snap = await open('/account/homoglyph');
    await refused('browser_click', { ref: refOf(snap, /button/) });
  });

  it('"Next" that becomes "Pay now" as the pointer arrives', async () => {
    const snap = await open('/checkout/toctou');
    const text = await refused('browser_click', { ref: refOf(snap, /button "Next"/) });
    assert.match(text, /changed after the safety check.*Pay now/s);
  });

  it('select_option by the value of a "Delete account" option', async () => {
    const snap = await open('/account/menu');
    await refused('browser_select_option', { ref: refOf(snap, /combobox "Actions"/), values: ['opt3'] });
  });

  it('navigating to the action URL itself', async () => {
    await refused('browser_navigate', { url: `${site.origin}/account/delete?confirm=1` });
  });
});
