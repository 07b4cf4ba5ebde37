import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { HEADLESS_ARGS, MCP_BIN } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * browser_run_script through the shipped MCP server (dist/mcp.js over stdio), with a real MCP client that answers
 * confirmations by elicitation, real Chromium and real pages on 127.0.0.1: a script drives the tools in a
 * QuickJS sandbox, and each of its calls goes through the same pipeline as a direct call.
 */

const SECRET = 'hunter2-s3cret-9f4';
const page = (title: string, body: string) => `<!doctype html><meta charset=utf-8><title>${title}</title><script>function hit(c){fetch('/did?c='+encodeURIComponent(c))}</script>${body}`;
const tableRows = (p: number) => Array.from({ length: 20 }, (_, i) => `<tr><td>${p}-${i + 1}</td><td>Item ${(p - 1) * 20 + i + 1}</td><td>${(i * 7) % 13}</td></tr>`).join('');
const formFields = Array.from({ length: 30 }, (_, i) => `<p><label>Field ${i + 1} <input name=f${i + 1}></label></p>`).join('');

interface Session {
  call(args: Record<string, unknown>, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<{ text: string; isError: boolean }>;
  /** Every confirmation the server asked, as the person saw it. */
  asked: string[];
  /** How the next confirmations are answered. */
  answer: (message: string) => ElicitResult | Promise<ElicitResult>;
  close(): Promise<void>;
}

async function startSession(extra: string[], auditDir: string): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, ...HEADLESS_ARGS, '--no-daemon', '--audit-dir', auditDir, ...extra], stderr: 'ignore' });
  const client = new Client({ name: 'script-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const s: Session = {
    asked: [],
    answer: () => ({ action: 'decline' }),
    async call(args, opts = {}) {
      const r: any = await client.callTool({ name: 'browser_run_script', arguments: args }, undefined, { timeout: opts.timeoutMs ?? 90_000, signal: opts.signal });
      return { text: r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n'), isError: !!r.isError };
    },
    close: () => client.close().catch(() => {}),
  };
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const message = String((req.params as { message: string }).message);
    s.asked.push(message);
    return s.answer(message);
  });
  await client.connect(transport);
  return s;
}

/** The JSON a script returned, from the result text. */
function returned(text: string): any {
  const m = /\nreturn: (.*)\n/.exec(text);
  assert.ok(m, `a return value in:\n${text}`);
  return JSON.parse(m[1]);
}

function auditText(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('mcp: browser_run_script (QuickJS sandbox, every call through the pipeline)', function () {
  this.timeout(180_000);
  let site: TestServer;
  let s: Session;
  const hits: string[] = [];
  const submitted: Record<string, string>[] = [];
  const auditDir = mkdtempSync(join(tmpdir(), 'ba-script-audit-'));
  const secretsFile = join(mkdtempSync(join(tmpdir(), 'ba-script-secrets-')), 'secrets.env');

  before(async () => {
    site = await startServer({
      '/did': (req, res) => {
        hits.push(new URL(req.url ?? '/', 'http://x').searchParams.get('c') ?? '');
        res.end('ok');
      },
      '/orders': (req, res) => {
        const p = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page(`Orders ${p}`, `<h1>Orders</h1><table><thead><tr><th>Id</th><th>Name</th><th>Qty</th></tr></thead><tbody>${tableRows(p)}</tbody></table><nav>Page ${p} of 6 ${p < 6 ? `<a href="/orders?page=${p + 1}">Next</a>` : ''}</nav>`));
      },
      '/form': page('Survey', `<form action="/submitted">${formFields}<button>Send</button></form>`),
      '/submitted': (req, res) => {
        submitted.push(Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams));
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page('Thanks', '<p>Thanks</p>'));
      },
      '/account/settings': page('Account settings', `<h1>Account</h1><button onclick="hit('delete')">Delete account</button><button onclick="hit('tick')">Refresh</button>`),
      '/login': page('Sign in', `<label>User <input name=user></label><label>Password <input type=password name=pw oninput="document.getElementById('echo').textContent = 'You typed ' + this.value"></label><p id=echo></p><button onclick="hit('login')">Sign in</button>`),
      '/other': page('Other', `<a href="/orders">Orders</a>`),
    });
    writeFileSync(secretsFile, `PW=${SECRET}\n`);
    s = await startSession(['--secrets-file', secretsFile, '--secret-origins', `PW@${site.origin}`], auditDir);
  });
  after(async () => {
    await s?.close();
    await site?.close();
  });
  beforeEach(() => {
    hits.length = 0;
    s.asked.length = 0;
    s.answer = () => ({ action: 'decline' });
  });

  it('pages through a 6-page table and returns its 120 rows in one call', async () => {
    const r = await s.call({
      args: { url: `${site.origin}/orders` },
      script: `
        await browser.navigate({ url: args.url });
        const rows = [];
        for (let p = 1; p <= 10; p++) {
          rows.push(...jsonOf(await browser.extract({ what: 'tables' }))[0].rows);
          const next = refsOf(await browser.snapshot(), 'link', 'Next')[0];
          if (!next) break;
          await browser.click({ ref: next.ref });
        }
        return rows;`,
    });
    assert.equal(r.isError, false, r.text);
    const rows = returned(r.text);
    assert.equal(rows.length, 120);
    assert.deepEqual(rows[0], { Id: '1-1', Name: 'Item 1', Qty: '0' });
    assert.equal(rows[119].Name, 'Item 120');
    assert.equal(new Set(rows.map((x: any) => x.Id)).size, 120);
    assert.match(r.text, /Script done: 18 tool calls \(navigate 1, extract 6, snapshot 6, click 5\)/);
    // The return value is page data: inside one fence; the page it ended on is named.
    assert.match(r.text, /<page-content id=\d+>\nreturn: \[/);
    assert.match(r.text, /page now: Orders 6 — http/);
  });

  it('fills a 30-field form field by field and submits it', async () => {
    const r = await s.call({
      args: { url: `${site.origin}/form` },
      script: `
        await browser.navigate({ url: args.url });
        const snap = await browser.snapshot();
        const fields = refsOf(snap, 'textbox');
        for (const [i, f] of fields.entries()) await browser.type({ ref: f.ref, text: 'answer ' + (i + 1) });
        await browser.click({ ref: refOf(snap, 'button', 'Send') });
        return fields.length;`,
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(returned(r.text), 30);
    const last = submitted[submitted.length - 1];
    assert.ok(last, 'the form was submitted');
    for (let i = 1; i <= 30; i++) assert.equal(last[`f${i}`], `answer ${i}`);
  });

  it('pauses at a confirm-rated call, asks with the script and the line, and goes on after Allow', async () => {
    let hitsWhenAsked = -1;
    s.answer = () => ((hitsWhenAsked = hits.filter((h) => h === 'delete').length), { action: 'accept', content: { decision: 'allow' } });
    const r = await s.call({
      args: { url: `${site.origin}/account/settings` },
      script: `await browser.navigate({ url: args.url });
const snap = await browser.snapshot();
await browser.click({ ref: refOf(snap, 'button', 'Delete account') });
log('deleted');
return (await browser.snapshot()).includes('Delete account');`,
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(s.asked.length, 1, 'one question, for the one confirm-rated call');
    assert.equal(hitsWhenAsked, 0, 'the script waited for the answer before clicking');
    assert.deepEqual(hits.filter((h) => h === 'delete'), ['delete']);
    const asked = s.asked[0];
    assert.match(asked, /Delete account/);
    assert.match(asked, /In a script: call 3 \(browser\.click, line 3\)/);
    assert.match(asked, /→\s+3\s+await browser\.click/, 'the call\'s line is marked in the script shown');
    assert.match(r.text, /log:\ndeleted/);
  });

  it('the time a person takes to answer does not count against the script\'s time limit', async () => {
    s.answer = () => new Promise((r) => setTimeout(() => r({ action: 'accept', content: { decision: 'allow' } }), 8_000)) as never;
    // 5 s for the script's own work (generous on a loaded machine), 8 s for the person.
    const r = await s.call({
      timeoutMs: 5_000,
      args: { url: `${site.origin}/account/settings` },
      script: "await browser.navigate({ url: args.url });\nawait browser.click({ ref: refOf(await browser.snapshot(), 'button', 'Delete account') });\nreturn 'after the answer';",
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(returned(r.text), 'after the answer');
    assert.deepEqual(hits, ['delete']);
  });

  it('stopped while a person is being asked: a late Allow acts on nothing', async () => {
    s.answer = () => new Promise((r) => setTimeout(() => r({ action: 'accept', content: { decision: 'allow' } }), 3_000)) as never;
    const abort = new AbortController();
    const running = s
      .call({ args: { url: `${site.origin}/account/settings` }, script: "await browser.navigate({ url: args.url });\nawait browser.click({ ref: refOf(await browser.snapshot(), 'button', 'Delete account') });\nreturn 1;" }, { signal: abort.signal })
      .catch((e) => e);
    const deadline = Date.now() + 30_000;
    while (!s.asked.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.asked.length, 1, 'the click was being asked about');
    abort.abort();
    await running;
    await new Promise((r) => setTimeout(r, 4_500));
    assert.deepEqual(hits, [], 'the Allow that came after the stop clicked nothing');
  });

  it('a declined call throws inside the script, which catches it; nothing is clicked', async () => {
    s.answer = () => ({ action: 'decline' });
    const r = await s.call({
      args: { url: `${site.origin}/account/settings` },
      script: `
        await browser.navigate({ url: args.url });
        const snap = await browser.snapshot();
        try {
          await browser.click({ ref: refOf(snap, 'button', 'Delete account') });
          return 'clicked';
        } catch (e) {
          return { code: e.code, declined: /declined/.test(e.message) };
        }`,
    });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(returned(r.text), { code: 'BLOCKED_BY_POLICY', declined: true });
    assert.equal(s.asked.length, 1);
    assert.deepEqual(hits, []);
    assert.match(r.text, /call 3 browser\.click \(line 5\) failed: BLOCKED_BY_POLICY: The user declined/);
  });

  it('a blocked call throws too (a secret placeholder put in a URL), and is not made', async () => {
    const r = await s.call({ script: `try { await browser.navigate({ url: '${site.origin}/did?c={{secret:PW}}' }); return 'went'; } catch (e) { return [e.code, e.message]; }` });
    const [code, message] = returned(r.text);
    assert.equal(code, 'BLOCKED_BY_POLICY');
    assert.match(message, /placeholder may only be typed into a field/);
    assert.deepEqual(hits, []);
  });

  it('cannot reach files, the environment, the network or the host: those names do not exist inside', async () => {
    const r = await s.call({
      args: { url: `${site.origin}/did?c=escape` },
      script: `
        const out = { type: {} };
        for (const name of ['require', 'process', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval', 'std', 'os', 'module', 'Deno', 'Bun', '__host', '__hostRaw', '__report'])
          out.type[name] = typeof globalThis[name];
        const attempt = async (f) => { try { await f(); return 'ran'; } catch (e) { return e.name + ': ' + e.message; } };
        out.fetch = await attempt(() => fetch(args.url));
        out.require = await attempt(() => require('fs').readFileSync('/etc/passwd'));
        out.env = await attempt(() => process.env.HOME);
        out.importFs = await attempt(() => import('node:fs'));
        out.fnThis = await attempt(() => Function('return this')().process.env);
        out.fileUrl = await attempt(() => browser.navigate({ url: 'file:///etc/passwd' }));
        out.upload = typeof browser.uploadFile;
        return out;`,
    });
    assert.equal(r.isError, false, r.text);
    const out = returned(r.text);
    for (const name of ['require', 'process', 'setTimeout', 'setInterval', 'XMLHttpRequest', 'WebSocket', 'std', 'os', 'module', 'Deno', 'Bun', '__host', '__hostRaw', '__report']) assert.equal(out.type[name], 'undefined', name);
    assert.match(out.fetch, /ReferenceError/);
    assert.match(out.require, /ReferenceError/);
    assert.match(out.env, /ReferenceError/);
    assert.doesNotMatch(out.importFs, /^ran$/);
    assert.match(out.fnThis, /TypeError/);
    assert.match(out.fileUrl, /Error: BLOCKED_BY_POLICY/);
    assert.equal(out.upload, 'undefined');
    assert.deepEqual(hits, [], 'the page server heard nothing from the sandbox');
  });

  it('a secret typed through a script never shows in its return value, log or the audit log', async () => {
    s.answer = () => ({ action: 'accept', content: { decision: 'allow' } });
    const r = await s.call({
      args: { url: `${site.origin}/login` },
      script: `
        await browser.navigate({ url: args.url });
        const snap = await browser.snapshot();
        await browser.type({ ref: refOf(snap, 'textbox', 'User'), text: 'ada' });
        await browser.type({ ref: refsOf(snap).find((x) => /Password/.test(x.name)).ref, text: '{{secret:PW}}' });
        const after = await browser.snapshot();
        log(after);
        const value = await browser.evaluate({ script: "document.querySelector('input[type=password]').value" });
        log('value', value);
        return { after, value, echo: after.includes('You typed') };`,
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(returned(r.text).echo, true, 'the page echoed what was typed (so there was something to leak)');
    assert.ok(!r.text.includes(SECRET), r.text);
    assert.ok(!auditText(auditDir).includes(SECRET), 'the audit log never holds the secret');
    assert.match(auditText(auditDir), /\{\{secret:PW\}\}/, 'the script is audited with the placeholder');
  });

  it('refs stay bound to their page inside a script: an old ref after a navigation is STALE_REF and clicks nothing', async () => {
    const r = await s.call({
      args: { a: `${site.origin}/account/settings`, b: `${site.origin}/other` },
      script: `
        await browser.navigate({ url: args.a });
        const ref = refOf(await browser.snapshot(), 'button', 'Refresh');
        await browser.navigate({ url: args.b });
        await browser.click({ ref });
        return 'clicked';`,
    });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^STALE_REF: the script failed at line 5/);
    assert.match(r.text, /It stopped at call 4 \(browser\.click, line 5\)/);
    assert.deepEqual(hits, []);
    // A ref no result of this page showed is not usable either.
    const never = await s.call({ script: `await browser.navigate({ url: '${site.origin}/account/settings' }); await browser.click({ ref: '1' }); return 1;` });
    assert.equal(never.isError, true, never.text);
    assert.match(never.text, /^(TARGET_NOT_FOUND|STALE_REF):/);
    assert.deepEqual(hits, []);
  });

  describe('limits, each with a clear error', () => {
    it('wall time', async () => {
      const t0 = Date.now();
      const r = await s.call({ timeoutMs: 2_000, script: 'for (;;) await sleep(200);' });
      assert.equal(r.isError, true);
      assert.match(r.text, /^SCRIPT_LIMIT: the script ran longer than its time limit of 2 s/);
      assert.match(r.text, /Hint: .*timeoutMs/);
      assert.ok(Date.now() - t0 < 20_000);
    });

    it('tool calls', async () => {
      const r = await s.call({ maxCalls: 5, script: `await browser.navigate({ url: '${site.origin}/other' }); for (;;) await browser.snapshot({ layer: 'summary' });` });
      assert.equal(r.isError, true);
      assert.match(r.text, /^SCRIPT_LIMIT: the script made 5 tool calls, its limit \(maxCalls\); call 6 \(browser\.snapshot\) was not run/);
    });

    it('memory: the 64 MB heap, not the engine\'s 2 GB address space', async () => {
      const r = await s.call({ script: 'const keep = []; for (let i = 1; ; i++) { keep.push(new Uint8Array(8 << 20)); log(i * 8); await sleep(0); }' });
      assert.equal(r.isError, true);
      assert.match(r.text, /^SCRIPT_LIMIT: the script ran out of memory/);
      const kept = Math.max(...[...r.text.matchAll(/^(\d+)$/gm)].map((m) => Number(m[1])));
      assert.ok(kept >= 32 && kept <= 72, `it held ${kept} MB before the limit stopped it`);
    });

    it('output size', async () => {
      const r = await s.call({ maxOutputChars: 1000, script: "return 'x'.repeat(5000);" });
      assert.equal(r.isError, true);
      assert.match(r.text, /^SCRIPT_LIMIT: the script returned 5,002 characters of JSON, more than its output limit of 1,000/);
    });

    it('a busy loop is stopped after a second of computing, and the server answers at once after', async () => {
      const t0 = Date.now();
      const r = await s.call({ script: 'while (true) {}' });
      assert.match(r.text, /^SCRIPT_LIMIT: the script computed for more than 1000 ms without waiting on a tool call/);
      assert.ok(Date.now() - t0 < 15_000, `${Date.now() - t0} ms`);
      const again = await s.call({ script: 'return 1 + 1;' });
      assert.equal(returned(again.text), 2);
    });

    it('a script error names its line; a syntax error is reported, not run', async () => {
      const thrown = await s.call({ script: "const a = 1;\nthrow new Error('nope ' + a);" });
      assert.match(thrown.text, /^SCRIPT_ERROR: the script failed at line 2/);
      assert.match(thrown.text, /error: nope 1/);
      const syntax = await s.call({ script: 'return (;' });
      assert.match(syntax.text, /^SCRIPT_ERROR: .*\(SyntaxError\)/);
      // Awaiting what nothing will settle ends at once, not at the time limit.
      const t0 = Date.now();
      const stuck = await s.call({ script: 'await new Promise(() => {}); return 1;' });
      assert.match(stuck.text, /^SCRIPT_ERROR: .*\n[\s\S]*a promise that nothing will settle/);
      assert.ok(Date.now() - t0 < 30_000);
    });
  });

  it('MCP cancellation stops a running script within about a second; nothing acts after', async () => {
    await s.call({ script: `await browser.navigate({ url: '${site.origin}/account/settings' }); return 1;` });
    const abort = new AbortController();
    const running = s.call({ script: `const ref = refOf(await browser.snapshot(), 'button', 'Refresh'); for (;;) { await browser.click({ ref }); await sleep(100); }` }, { signal: abort.signal }).catch((e) => e);
    const deadline = Date.now() + 30_000;
    while (hits.filter((h) => h === 'tick').length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(hits.length >= 3, 'the script was clicking');
    abort.abort();
    await running;
    await new Promise((r) => setTimeout(r, 1_500));
    const settled = hits.length;
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(hits.length, settled, 'no click after the cancel settled');
    const again = await s.call({ script: 'return "still here";' });
    assert.equal(returned(again.text), 'still here');
  });

  it('the audit log has the script (its text) and each of its calls as a step of its own, with call number and line', () => {
    const events = auditText(auditDir)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const script = events.find((e) => e.tool === 'browser_run_script' && /Delete account/.test(e.input?.script ?? ''));
    assert.ok(script, 'the script step is logged with its text');
    const inner = events.find((e) => e.tool === 'browser_click' && e.inScript && e.decision === 'allowed');
    assert.ok(inner, 'the confirmed click is logged as its own step');
    assert.deepEqual(inner.inScript, { call: 3, line: 3, fn: 'click' });
    assert.equal(inner.risk, 'confirm');
    assert.ok(inner.step < script.step, 'calls are logged before the script that made them');
  });
});
