import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { HEADLESS_ARGS, MCP_BIN, startMcp, type McpProcess } from '../helpers/mcpProcess';
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

  it('--snapshot-max-tokens sets the budget of a snapshot called without one; a call\'s own maxTokens wins', async () => {
    const frugal = await startMcp([...HEADLESS_ARGS, '--snapshot-max-tokens', '2000']);
    try {
      await frugal.call('browser_navigate', { url: `${srv.url}big` }, 120_000);
      const r = await frugal.call('browser_snapshot', {}, 120_000);
      assert.match(r.text, /\[Cut by the 2,000-token budget after line (\d+) of \d+; .*Read on: browser_snapshot with offset=\1/);
      const tokens = countTokens(r.text);
      assert.ok(tokens > 1200 && tokens < 2600, `about the budget: ${tokens} tokens`);
      const own = await frugal.call('browser_snapshot', { maxTokens: 6000 }, 120_000);
      assert.match(own.text, /\[Cut by the 6,000-token budget/);
      const next = /offset=(\d+)/.exec(r.text)![1];
      const more = await frugal.call('browser_snapshot', { offset: Number(next) }, 120_000);
      assert.match(more.text, new RegExp(`continued from offset=${next}`), 'reading on uses the same budget');
      assert.match(more.text, /\[Cut by the 2,000-token budget/);
    } finally {
      await frugal.close();
    }
    for (const bad of ['12', 'lots', '300000']) {
      const run = spawnSync(process.execPath, [MCP_BIN, '--snapshot-max-tokens', bad], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 2, `${bad}: ${run.stderr}`);
      assert.match(run.stderr, /--snapshot-max-tokens must be a whole number from 200 to 200000/);
    }
  });
});
