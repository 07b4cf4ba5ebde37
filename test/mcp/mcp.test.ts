import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_LAUNCH, crossSite, startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');

interface Mcp {
  client: Client;
  /** Calls a tool and returns its text; `isError` results are returned too (the model sees them). */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; images: number }>;
  close(): Promise<void>;
}

const AUDIT_DIR = mkdtempSync(join(tmpdir(), 'ba-mcp-audit-'));
// The servers go through a session daemon of their own (the default mode), never the user's.
const DAEMON_DIR = mkdtempSync(join(tmpdir(), 'ba-mcp-daemon-'));
const DAEMON_ENV = { ...(process.env as Record<string, string>), BROWSER_AGENT_DAEMON_DIR: DAEMON_DIR, BROWSER_AGENT_DAEMON_IDLE_MS: '1500' };

async function spawnMcp(args: string[]): Promise<Mcp> {
  if (!existsSync(MCP_BIN)) throw new Error(`${MCP_BIN} is missing: run node esbuild.mjs first`);
  if (!args.includes('--audit-dir')) args = [...args, '--audit-dir', AUDIT_DIR];
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, ...args], stderr: 'ignore', env: DAEMON_ENV });
  const client = new Client({ name: 'browser-agent-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, a = {}) {
      const r: any = await client.callTool({ name, arguments: a }, undefined, { timeout: 60_000 });
      const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
      return { text, isError: !!r.isError, images: r.content.filter((c: any) => c.type === 'image').length };
    },
    close: () => client.close(),
  };
}

const launchArgs = ['--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`)];

describe('mcp: the stdio server through a real MCP client', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let mcp: Mcp;
  before(async () => {
    srv = await startServer({
      '/': `<!doctype html><title>Shop</title><nav><a href="/pricing">Pricing</a> <a href="/search">Search</a></nav><p>Welcome</p>`,
      '/pricing': `<!doctype html><title>Pricing</title><table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Basic</td><td>9</td></tr><tr><td>Pro</td><td>29</td></tr></tbody></table>`,
      '/search': `<!doctype html><title>Search</title><form action="/results"><input name=q autofocus></form>`,
      '/results': (req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams.get('q');
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Results</title><h1>Results for ${q}</h1>`);
      },
      '/signup': `<!doctype html><title>Sign up</title><form onsubmit="event.preventDefault(); document.body.innerHTML = '<p>Thanks, ' + this.email.value + '</p>'"><label>Email <input name=email></label><label><input type=checkbox name=terms required> I accept the terms</label><button>Create account</button></form>`,
    });
    mcp = await spawnMcp([...launchArgs, '--blocked-origins', 'localhost']);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
  });

  it('lists every tool with a JSON schema and annotations from its risk', async () => {
    const { tools } = await mcp.client.listTools();
    assert.equal(tools.length, 29);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(byName.browser_snapshot.annotations?.readOnlyHint, true);
    assert.equal(byName.browser_click.annotations?.readOnlyHint, false);
    assert.equal(byName.browser_evaluate.annotations?.destructiveHint, true);
    assert.equal(byName.browser_click.annotations?.destructiveHint, true);
    assert.equal(byName.browser_navigate.annotations?.destructiveHint, false);
    assert.equal(byName.browser_snapshot.annotations?.destructiveHint, false);
    assert.equal(byName.browser_click.inputSchema.type, 'object');
    assert.ok((byName.browser_click.inputSchema.properties as any).ref);
    // For the strictest clients (OpenAI strict mode, clients that search tool descriptions to load them).
    for (const t of tools) {
      if (!Object.keys(t.inputSchema.properties ?? {}).length) assert.equal(t.inputSchema.additionalProperties, false, `${t.name} takes no arguments and says so`);
      assert.doesNotMatch(JSON.stringify(t.inputSchema), /9007199254740991/, `${t.name}: no bound that only says "any safe integer"`);
    }
    assert.match(byName.browser_navigate.description!, /\bnavigate\b/i);
  });

  it('records every call in the JSONL audit log given by --audit-dir, with its decision', async () => {
    await mcp.call('browser_navigate', { url: 'about:blank' });
    // browser_evaluate always asks; this client has no elicitation and the server no --allow-confirm-actions.
    const refused = await mcp.call('browser_evaluate', { script: '1 + 1' });
    assert.equal(refused.isError, true, refused.text);
    const logs = readdirSync(AUDIT_DIR, { recursive: true }).map(String).filter((f) => f.endsWith('log.jsonl'));
    assert.ok(logs.length >= 1, 'a task log exists');
    const events = logs.flatMap((f) => readFileSync(join(AUDIT_DIR, f), 'utf8').trim().split('\n')).map((l) => JSON.parse(l));
    const nav = events.find((e) => e.tool === 'browser_navigate');
    assert.ok(nav, 'the navigate step is logged');
    assert.equal(nav.decision, 'auto');
    assert.equal(nav.ok, true);
    const ev = events.find((e) => e.tool === 'browser_evaluate');
    assert.ok(ev, 'the refused step is logged');
    assert.match(ev.decision, /^(refused|needs-confirmation)$/);
    assert.equal(ev.risk, 'confirm');
    assert.equal(ev.ok, false);
  });

  it('task: find the price of the Pro plan by following links (extract + navigate)', async () => {
    assert.match((await mcp.call('browser_navigate', { url: srv.url })).text, /\nTitle: Shop\n/);
    const links = await mcp.call('browser_extract', { what: 'links' });
    const pricing = /\[Pricing\]\((\S+)\)/.exec(links.text)?.[1];
    assert.ok(pricing, links.text);
    await mcp.call('browser_navigate', { url: pricing });
    const tables = await mcp.call('browser_extract', { what: 'tables' });
    const data = JSON.parse(/\[[\s\S]*\]/.exec(tables.text)![0]);
    assert.equal(data[0].rows.find((r: any) => r.Plan === 'Pro').Price, '29');
  });

  it('task: search by typing into the focused field and submitting, then see the result', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/search` });
    const typed = await mcp.call('browser_type', { text: 'red shoes', submit: true });
    assert.equal(typed.isError, false, typed.text);
    assert.match(typed.text, /URL: .*\/results\?q=red\+shoes/);
    assert.match(typed.text, /\nTitle: Results\n/);
    assert.match((await mcp.call('browser_wait', { text: 'Results for red shoes' })).text, /met/);
    const shot = await mcp.call('browser_screenshot');
    assert.equal(shot.images, 1);
  });

  it('task: sign up using snapshot refs', async () => {
    await mcp.call('browser_navigate', { url: `${srv.origin}/signup` });
    const snap = await mcp.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    const ref = (re: RegExp) => re.exec(snap.text)?.[1];
    const email = ref(/\[([^\]]+)\] textbox "Email"/);
    const terms = ref(/\[([^\]]+)\] checkbox "I accept the terms"/);
    const submit = ref(/\[([^\]]+)\] button "Create account"/);
    assert.ok(email && terms && submit, snap.text);
    const filled = await mcp.call('browser_fill_form', { fields: [{ ref: email, value: 'ada@example.com' }, { ref: terms, value: true }] });
    assert.equal(filled.isError, false, filled.text);
    const clicked = await mcp.call('browser_click', { ref: submit });
    assert.equal(clicked.isError, false, clicked.text);
    assert.match((await mcp.call('browser_wait', { text: 'Thanks, ada@example.com' })).text, /met/);
    // A ref from a previous page is a clear error naming the element it was.
    await mcp.call('browser_navigate', { url: srv.url });
    const old = await mcp.call('browser_click', { ref: submit });
    assert.equal(old.isError, true);
    assert.match(old.text, /^(STALE_REF|TARGET_NOT_FOUND): /);
  });

  it('gives readable errors: wrong types, unknown tool, refused scheme, blocked origin', async () => {
    const bad = await mcp.call('browser_click', { x: 'left', y: 1 });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /INVALID_INPUT: Invalid arguments for browser_click: x: .*expected number/);
    const unknown = await mcp.call('browser_fly');
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /Unknown tool browser_fly/);
    assert.match((await mcp.call('browser_navigate', { url: 'file:///etc/passwd' })).text, /BLOCKED_BY_POLICY: .*Navigation to file: URLs are not allowed/);
    const blocked = await mcp.call('browser_navigate', { url: crossSite(srv.url) });
    assert.equal(blocked.isError, true);
    assert.match(blocked.text, /BLOCKED_BY_POLICY: .*blocked origin "localhost"/);
  });

  it('keeps secret values out of the audit log: a {{secret:NAME}} value and a password sent in a GET form', async () => {
    const SECRET = 'ACCT-7788-9911-Zq';
    const PASSWORD = 'hunter2-Very$ecret';
    const dir = mkdtempSync(join(tmpdir(), 'ba-mcp-secrets-'));
    const secretsFile = join(dir, 'secrets.env');
    writeFileSync(secretsFile, `ACCOUNT=${SECRET}\n`);
    const auditDir = join(dir, 'audit');
    srv.route('/pay', `<!doctype html><title>Pay</title><form action="/paid"><label>Account <input name=account></label><label>Password <input type=password name=pw></label><button>Send</button></form>`);
    srv.route('/paid', `<!doctype html><title>Paid</title><p>Thanks</p>`);
    const m = await spawnMcp([...launchArgs, '--allow-confirm-actions', '--secrets-file', secretsFile, '--audit-dir', auditDir]);
    try {
      await m.call('browser_navigate', { url: `${srv.origin}/pay` });
      const snap = (await m.call('browser_snapshot')).text;
      const ref = (name: string) => new RegExp(`\\[(\\w+)\\] textbox "${name}"`).exec(snap)?.[1];
      assert.equal((await m.call('browser_type', { ref: ref('Account'), text: '{{secret:ACCOUNT}}' })).isError, false);
      assert.equal((await m.call('browser_type', { ref: ref('Password'), text: PASSWORD, submit: true })).isError, false);
      assert.match((await m.call('browser_wait', { text: 'Thanks' })).text, /met/);
      await m.call('browser_snapshot');
    } finally {
      await m.close();
    }
    const files = readdirSync(auditDir, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    const log = files.map((f) => readFileSync(join(auditDir, f), 'utf8')).join('\n');
    assert.match(log, /\/paid\?/, 'the submitted URL is in the log');
    for (const v of [SECRET, PASSWORD, encodeURIComponent(PASSWORD)]) assert.ok(!log.includes(v), `${v} is in the audit log`);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('attached with --cdp-url', () => {
    let ext: ExternalBrowser;
    let a: Mcp;
    let b: Mcp;
    before(async () => {
      ext = await startExternalChromium();
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await ext?.stop();
    });

    it('two MCP processes on one browser each work in their own tab', async () => {
      a = await spawnMcp(['--cdp-url', `http://127.0.0.1:${ext.port}`, '--allow-confirm-actions']);
      b = await spawnMcp(['--cdp-url', `http://127.0.0.1:${ext.port}`, '--allow-confirm-actions']);
      assert.match((await a.call('browser_navigate', { url: `${srv.origin}/pricing` })).text, /\nTitle: Pricing\n/);
      assert.match((await b.call('browser_navigate', { url: `${srv.origin}/search` })).text, /\nTitle: Search\n/);
      assert.match((await a.call('browser_evaluate', { script: 'location.pathname' })).text, /"\/pricing"/);
      assert.match((await b.call('browser_evaluate', { script: 'location.pathname' })).text, /"\/search"/);
      const res = await fetch(`http://127.0.0.1:${ext.port}/json/list`);
      const pages = ((await res.json()) as any[]).filter((t) => t.type === 'page').map((t) => new URL(t.url).pathname).sort();
      assert.deepEqual(pages, ['/pricing', '/search']);
      // Each sees, selects and closes only its own tabs.
      const listA = (await a.call('browser_tabs', { action: 'list' })).text;
      assert.match(listA, /\/pricing/);
      assert.doesNotMatch(listA, /\/search/);
      assert.equal((await b.call('browser_tabs', { action: 'list' })).text.split('\n').filter((l) => /^\d+\. /.test(l)).length, 1);
      assert.equal((await b.call('browser_tabs', { action: 'select', index: 1 })).isError, true);
      // The first one took the page that was already open (the user's about:blank), not a new tab.
      assert.match((await a.call('browser_close')).text, /Detached from the browser/);
      const again = await fetch(`http://127.0.0.1:${ext.port}/json/version`);
      assert.equal(again.ok, true);
    });
  });
});
