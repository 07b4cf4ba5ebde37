import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

/** What the strictest common client accepts in one tool result (Claude Code's cap). */
const CLIENT_CAP_TOKENS = 25_000;

/** 20,000 interactive elements: rows of links, buttons and inputs, as a huge admin table would have. */
function bigPage(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n / 4; i++) rows.push(`<tr><td><a href="/item/${i}">Item ${i}</a></td><td><button>Edit ${i}</button></td><td><button>Delete ${i}</button></td><td><input aria-label="Qty ${i}" value="${i % 7}"></td></tr>`);
  return `<!doctype html><title>Inventory</title><h1>Inventory</h1><table>${rows.join('')}</table>`;
}

describe('mcp: a huge page never yields a result a client cannot take', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let mcp: McpProcess;
  before(async () => {
    srv = await startServer({ '/big': bigPage(20_000) });
    mcp = await startMcp(HEADLESS_ARGS);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
  });

  it('the default snapshot of a 20,000-element page stays under 25,000 o200k tokens and says how to read on', async () => {
    const nav = await mcp.call('browser_navigate', { url: `${srv.url}big` }, 120_000);
    assert.equal(nav.isError, false, nav.text);
    for (const [tool, args] of [['browser_snapshot', {}], ['browser_find', { query: 'Item' }]] as const) {
      const r = await mcp.call(tool, args, 120_000);
      assert.equal(r.isError, false, `${tool}: ${r.text.slice(0, 300)}`);
      const tokens = countTokens(r.text);
      assert.ok(tokens <= CLIENT_CAP_TOKENS, `${tool}: ${tokens} tokens`);
      assert.match(r.text, /Item 0\b/, `${tool} still returns the start of the page`);
      if (tool === 'browser_snapshot') assert.match(r.text, /\[Cut by the [\d,]+-token budget after line \d+ of \d+; .*Read on: browser_snapshot with offset=\d+/);
    }
  });
});
