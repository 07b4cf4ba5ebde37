import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecider, type ConfirmAnswer, type ConfirmRequest } from '../../src/safety/decider';
import { SecretVault } from '../../src/safety/secrets';
import { redactingStepHook, secureTool } from '../../src/safety/secureTool';
import { normalizePolicy } from '../../src/safety/settings';
import { SessionManager } from '../../src/session/manager';
import { findTool } from '../../src/tools/registry';
import { runTool, type StepEvent } from '../../src/tools/runner';
import type { ToolContext, ToolResult } from '../../src/tools/types';
import { prepareCall } from '../../src/vscode/copilotCalls';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

/** The registry's real tools behind the safety gate, in real Chromium (runs once the tools are in the registry). */
describe('safety with the real tools', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let ctx: ToolContext;
  let site: TestServer;
  let other: TestServer;
  let downloads: string;
  let answer: ConfirmAnswer = 'allow';
  const asked: ConfirmRequest[] = [];
  const steps: StepEvent[] = [];
  const vault = new SecretVault();
  let decider: ReturnType<typeof createDecider>;

  const call = (name: string, input: unknown) => {
    const tool = findTool(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return runTool(secureTool(tool, vault), input, ctx, { decide: decider.decide, onStep: redactingStepHook(vault, (e) => void steps.push(e)) });
  };

  before(async function () {
    if (!['browser_navigate', 'browser_click', 'browser_type', 'browser_evaluate'].every((n) => findTool(n))) this.skip();
    other = await startServer({ '/landing': '<title>landing</title><p>blocked land</p>' });
    site = await startServer({
      '/': '<title>home</title><a href="/go" style="position:fixed;left:0;top:0;width:300px;height:120px;display:block">go</a>',
      '/go': (_q, res) => {
        res.writeHead(302, { location: `${crossSite(other.origin)}/landing` });
        res.end();
      },
      '/login': '<title>Sign in</title><form><label for=p>Password</label><input id=p type=password autofocus></form>',
    });
    downloads = mkdtempSync(join(tmpdir(), 'ba-safety-dl-'));
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    ctx = { sessions, browser: () => sessions.ensure(), tab: async () => (await sessions.ensure()).activeTab(), settings: { allowedSchemes: [], downloadsDir: downloads, maxWaitMs: 15_000 } };
    decider = createDecider(() => normalizePolicy({ blockedOrigins: [`localhost:${other.port}`] }), async (req) => (asked.push(req), answer), undefined, { vault });
  });
  after(async () => {
    await sessions?.close();
    await site?.close();
    await other?.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  it('browser_navigate: a redirect into a blocked origin is blocked after landing and the page is left', async () => {
    const r = await call('browser_navigate', { url: `${site.origin}/go` });
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.equal(await (await ctx.tab()).evaluate('location.href'), 'about:blank');
  });

  it('browser_click on a link that redirects into a blocked origin is blocked after landing', async () => {
    assert.equal((await call('browser_navigate', { url: site.url })).isError, undefined);
    const r = await call('browser_click', { x: 50, y: 50 });
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.equal(await (await ctx.tab()).evaluate('location.href'), 'about:blank');
  });

  it('browser_evaluate asks first; declined is a result for the model, allowed runs', async () => {
    answer = 'refuse';
    const no = await call('browser_evaluate', { script: '6*7' });
    assert.equal(no.code, 'BLOCKED_BY_POLICY');
    assert.match(textOf(no), /declined/);
    answer = 'allow';
    const yes = await call('browser_evaluate', { script: '6*7' });
    assert.match(textOf(yes), /42/);
    assert.equal(asked.at(-1)?.rating.rule, 'always-confirm:browser_evaluate');
  });

  it('a password typed with browser_type is confirmed and never shown again, in any output', async () => {
    await call('browser_navigate', { url: `${site.origin}/login` });
    const tab = await ctx.tab();
    await tab.evaluate(`document.getElementById('p').focus()`);
    const secret = 'real-tool-pass-314';
    const typed = await call('browser_type', { text: secret });
    assert.equal(typed.isError, undefined, textOf(typed));
    assert.equal(await tab.evaluate(`document.getElementById('p').value`), secret);
    assert.equal(asked.at(-1)?.rating.rule, 'sensitive-field');
    const read = await call('browser_evaluate', { script: `document.getElementById('p').value` });
    assert.match(textOf(read), /\[redacted\]/);
    assert.ok(!JSON.stringify({ typed, read, steps, asked }).includes(secret));
  });

  it('Copilot prepareInvocation with the real preview: confirmation names the page, and nothing runs', async () => {
    const tool = findTool('browser_evaluate')!;
    const before = steps.length;
    const p = await prepareCall(tool, { script: 'document.title' }, decider, vault, ctx);
    assert.ok(p.confirmation);
    assert.match(p.confirmation.lines.join('\n'), new RegExp(`Page: "Sign in" — ${site.origin.replace(/\./g, '\\.')}`));
    assert.equal(steps.length, before);
  });
});
