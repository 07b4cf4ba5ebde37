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

/** A long article: paragraphs of text with a link after every tenth, and a footer link at the end. */
function article(paragraphs: number): string {
  const ps: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    ps.push(`<p>Paragraph ${i} of the story tells what the committee decided about budget line ${i} and why it matters to the town.</p>`);
    if (i % 10 === 9) ps.push(`<p><a href="/more/${i}">More on part ${i}</a></p>`);
  }
  return `<!doctype html><title>Story</title><h1>Story</h1>${ps.join('')}<footer><a href="/contact">Contact us</a></footer>`;
}

describe('mcp: a huge page never yields a result a client cannot take', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let mcp: McpProcess;
  before(async () => {
    srv = await startServer({ '/big': bigPage(20_000), '/article': article(300) });
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

  it('--snapshot-fold-text-after sets where a long page\'s text folds (0: never); every link is listed either way', async () => {
    const at = (text: string) => Number(/\[Page text folded after line (\d+):/.exec(text)?.[1] ?? -1);
    const links = (text: string) => (text.match(/^\[\d+\] link "/gm) ?? []).length;
    await mcp.call('browser_navigate', { url: `${srv.url}article` }, 60_000);
    const byDefault = await mcp.call('browser_snapshot', {}, 60_000);
    assert.ok(at(byDefault.text) > 0, byDefault.text.slice(-500));
    assert.equal(links(byDefault.text), 31, 'all 30 "More" links and the footer link');
    assert.doesNotMatch(byDefault.text, /Paragraph 299 /);
    for (const [flag, expect] of [['0', 'whole'], ['500', 'earlier']] as const) {
      const other = await startMcp([...HEADLESS_ARGS, '--snapshot-fold-text-after', flag]);
      try {
        await other.call('browser_navigate', { url: `${srv.url}article` }, 60_000);
        const r = await other.call('browser_snapshot', {}, 60_000);
        assert.equal(links(r.text), 31);
        if (expect === 'whole') {
          assert.equal(at(r.text), -1, 'never folded');
          assert.match(r.text, /Paragraph 299 /);
        } else {
          assert.ok(at(r.text) > 0 && at(r.text) < at(byDefault.text), `folds earlier: line ${at(r.text)} against ${at(byDefault.text)}`);
          const all = await other.call('browser_snapshot', { fullText: true }, 60_000);
          assert.match(all.text, /Paragraph 299 /, 'fullText still reads it all');
        }
      } finally {
        await other.close();
      }
    }
    for (const bad of ['-1', 'some', '300000']) {
      const run = spawnSync(process.execPath, [MCP_BIN, `--snapshot-fold-text-after=${bad}`], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 2, `${bad}: ${run.stderr}`);
      assert.match(run.stderr, /--snapshot-fold-text-after must be a whole number from 0 to 200000/);
    }
  });
});
