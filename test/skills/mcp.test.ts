import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { tempSkillsDir, writeSkill } from './helpers';

const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');

async function spawnMcp(args: string[]) {
  if (!existsSync(MCP_BIN)) throw new Error(`${MCP_BIN} is missing: run node esbuild.mjs first`);
  const audit = mkdtempSync(join(tmpdir(), 'ba-skills-audit-'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`), '--audit-dir', audit, '--no-daemon', ...args], stderr: 'ignore' });
  const client = new Client({ name: 'skills-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name: string, a: Record<string, unknown> = {}) {
      const r: any = await client.callTool({ name, arguments: a }, undefined, { timeout: 60_000 });
      return { text: r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n') as string, isError: !!r.isError };
    },
    async close() {
      await client.close();
      rmSync(audit, { recursive: true, force: true });
    },
  };
}

describe('skills through the MCP server (real client over stdio)', function () {
  this.timeout(120_000);
  let site: TestServer;
  let dir: string;
  let mcp: Awaited<ReturnType<typeof spawnMcp>>;
  before(async () => {
    site = await startServer({ '/': '<title>Local shop</title><h1>Shop</h1><a href="/cart">Cart</a>', '/cart': '<title>Cart</title><button>Pay</button>' });
    dir = tempSkillsDir();
    writeSkill(dir, 'local', { name: 'Local shop: check out', description: 'Pay for the cart on the local shop', sites: [`127.0.0.1:${site.port}`], steps: '1. Open Cart.\n2. Stop before Pay.' });
    writeSkill(dir, 'other', { name: 'Other shop: check out', description: 'Pay for the cart on the other shop', sites: ['other.example'], steps: '1. Elsewhere.' });
    mcp = await spawnMcp(['--skills-dir', dir]);
  });
  after(async () => {
    await mcp?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists browser_skills_search as a read-only tool', async () => {
    const { tools } = await mcp.client.listTools();
    const t = tools.find((x) => x.name === 'browser_skills_search');
    assert.ok(t, 'listed');
    assert.equal(t.annotations?.readOnlyHint, true);
    assert.deepEqual((t.inputSchema as any).required, ['query']);
  });

  it('ranks the skill for the current page first, from the same library the chat agent uses', async () => {
    const before = await mcp.call('browser_skills_search', { query: 'check out the cart' });
    assert.ok(!before.isError, before.text);
    assert.match(before.text, /Local shop: check out/);
    await mcp.call('browser_navigate', { url: site.url });
    const r = await mcp.call('browser_skills_search', { query: 'pay for the cart' });
    assert.ok(r.text.indexOf('Local shop: check out') < r.text.indexOf('Other shop: check out') || !r.text.includes('Other shop'), r.text);
    assert.match(r.text, /Local shop: check out[\s\S]*\(matches the current page\)/);
    assert.match(r.text, /<user-skill source="extra">/);
  });

  it('sees a skill written while the server runs (file watcher)', async () => {
    writeSkill(dir, 'later', { name: 'Gift cards', description: 'Redeem a gift card code', steps: '1. Open Account, then Gift cards.' });
    let text = '';
    for (let i = 0; i < 50 && !/Gift cards/.test(text); i++) {
      text = (await mcp.call('browser_skills_search', { query: 'redeem gift card' })).text;
      if (!/Gift cards/.test(text)) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(text, /name: Gift cards/);
  });

  it('allowed-tools on MCP: the list narrows on the site (list_changed is sent), other tools are refused, the list widens off the site', async () => {
    const strictSite = await startServer({ '/': '<title>Strict</title><button onclick="document.title=\'hit\'">Go</button>' });
    const strictDir = tempSkillsDir();
    writeSkill(strictDir, 'strict', { name: 'Strict site: read only', description: 'Only read this site', sites: [`127.0.0.1:${strictSite.port}`], allowedTools: ['browser_navigate', 'browser_snapshot'], steps: '1. Read.' });
    const m = await spawnMcp(['--skills-dir', strictDir]);
    let changes = 0;
    m.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changes++);
    try {
      assert.equal((await m.client.listTools()).tools.length, 29);
      await m.call('browser_navigate', { url: strictSite.url });
      for (let i = 0; i < 50 && !changes; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(changes, 1, 'the client was told the list changed');
      assert.deepEqual((await m.client.listTools()).tools.map((t) => t.name).sort(), ['browser_navigate', 'browser_skills_search', 'browser_snapshot']);
      const snap = await m.call('browser_snapshot');
      const ref = /\[(\w+)\] button "Go"/.exec(snap.text)?.[1];
      assert.ok(ref, snap.text);
      const click = await m.call('browser_click', { ref });
      assert.ok(click.isError);
      assert.match(click.text, /BLOCKED_BY_POLICY: browser_click is not allowed on this site: the skill "Strict site: read only" allows only browser_navigate, browser_skills_search, browser_snapshot/);
      assert.match((await m.call('browser_snapshot')).text, /Strict/, 'the page was not clicked');
      await m.call('browser_navigate', { url: 'about:blank' });
      for (let i = 0; i < 50 && changes < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(changes, 2);
      assert.equal((await m.client.listTools()).tools.length, 29);
    } finally {
      await m.close();
      await strictSite.close();
      rmSync(strictDir, { recursive: true, force: true });
    }
  });

  it('--skills-dir off: the tool says there is no library', async () => {
    const off = await spawnMcp(['--skills-dir', 'off']);
    try {
      const r = await off.call('browser_skills_search', { query: 'anything' });
      assert.ok(r.isError);
      assert.match(r.text, /No skill library/);
    } finally {
      await off.close();
    }
  });
});
