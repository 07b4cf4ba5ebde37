import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecider, type ConfirmAnswer, type ConfirmRequest } from '../../src/safety/decider';
import { SecretVault } from '../../src/safety/secrets';
import { redactingStepHook, secureTool } from '../../src/safety/secureTool';
import { normalizePolicy } from '../../src/safety/settings';
import { SessionManager } from '../../src/session/manager';
import { findTool } from '../../src/tools/registry';
import { runTool, type StepEvent } from '../../src/runtime/runner';
import type { ToolContext, ToolResult } from '../../src/contract/types';
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

  before(async () => {
    other = await startServer({ '/landing': '<title>landing</title><p>blocked land</p>' });
    site = await startServer({
      '/': '<title>home</title><a href="/go" style="position:fixed;left:0;top:0;width:300px;height:120px;display:block">go</a>',
      '/go': (_q, res) => {
        res.writeHead(302, { location: `${crossSite(other.origin)}/landing` });
        res.end();
      },
      '/opener':
        '<title>opener</title>' +
        `<button style="position:fixed;left:0;top:0;width:300px;height:60px" onclick="window.open('${crossSite(other.origin)}/landing')">bad popup</button>` +
        `<a href="/go" target="_blank" style="position:fixed;left:0;top:80px;width:300px;height:60px;display:block">redirecting tab</a>` +
        `<button style="position:fixed;left:0;top:160px;width:300px;height:60px" onclick="window.open('/ok')">good popup</button>`,
      '/ok': '<title>ok page</title><p>fine</p>',
      '/files': '<title>files</title><a href="/dl/setup" style="position:fixed;left:0;top:0;width:300px;height:60px;display:block">get setup</a><a href="/dl/report" style="position:fixed;left:0;top:80px;width:300px;height:60px;display:block">get report</a>',
      '/dl/setup': (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="setup.exe"' });
        res.end('MZ-not-really-an-exe');
      },
      '/dl/report': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' });
        res.end('a,b\n1,2\n');
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

  const pageTabs = async () => (await sessions.ensure()).tabs().length;

  it('a popup (window.open) onto a blocked origin is closed and the result says BLOCKED_BY_POLICY', async () => {
    await call('browser_navigate', { url: `${site.origin}/opener` });
    const tabsBefore = await pageTabs();
    const r = await call('browser_click', { x: 50, y: 30 });
    assert.match(textOf(r), new RegExp(`BLOCKED_BY_POLICY: the action opened a new tab on <page-content id=[0-9a-f]+>${crossSite(other.origin)}/landing`), textOf(r));
    assert.doesNotMatch(textOf(r), /New tab opened/);
    assert.equal(await pageTabs(), tabsBefore, 'the popup was closed');
    assert.equal((await ctx.tab()).url, `${site.origin}/opener`, 'back on the opener');
  });

  it('a target=_blank tab that redirects into a blocked origin is closed too', async () => {
    const tabsBefore = await pageTabs();
    const r = await call('browser_click', { x: 50, y: 110 });
    assert.match(textOf(r), /BLOCKED_BY_POLICY: the action opened a new tab on .*\/landing/, textOf(r));
    assert.equal(await pageTabs(), tabsBefore);
  });

  it('a popup on an allowed origin is unaffected', async () => {
    const tabsBefore = await pageTabs();
    const r = await call('browser_click', { x: 50, y: 190 });
    assert.doesNotMatch(textOf(r), /BLOCKED_BY_POLICY/);
    assert.match(textOf(r), /New tab opened/);
    assert.equal(await pageTabs(), tabsBefore + 1);
    const popup = await ctx.tab();
    assert.equal(await popup.evaluate('location.pathname'), '/ok');
    await (await sessions.ensure()).closeTab(popup.targetId);
  });

  it('an executable download asks first; refused, it is stopped, deleted and the result says so', async () => {
    await call('browser_navigate', { url: `${site.origin}/files` });
    answer = 'refuse';
    const asks = asked.length;
    const r = await call('browser_click', { x: 50, y: 30 });
    assert.equal(asked.length, asks + 1, 'asked once');
    assert.equal(asked.at(-1)?.rating.rule, 'executable-download');
    assert.match(textOf(r), /BLOCKED_BY_POLICY: The download of "setup\.exe" was declined/, textOf(r));
    assert.doesNotMatch(textOf(r), /Downloaded <page-content id=\w+>setup\.exe</);
    await new Promise((res) => setTimeout(res, 500)); // a late completion is deleted as well
    assert.deepEqual(readdirSync(downloads).filter((f) => f.startsWith('setup')), []);
    answer = 'allow';
  });

  it('an executable download the user allows is saved; other downloads are not asked about', async () => {
    const asks = asked.length;
    const yes = await call('browser_click', { x: 50, y: 30 });
    assert.match(textOf(yes), /Downloaded <page-content id=\w+>setup\.exe</, textOf(yes));
    assert.equal(asked.length, asks + 1, JSON.stringify(asked.slice(asks).map((a) => a.preview)) + textOf(yes));
    assert.ok(existsSync(join(downloads, 'setup.exe')));
    const csv = await call('browser_click', { x: 50, y: 110 });
    assert.match(textOf(csv), /Downloaded <page-content id=\w+>report\.csv</, textOf(csv));
    assert.equal(asked.length, asks + 1, 'a .csv is not confirmed');
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
    assert.match(p.confirmation.lines.join('\n'), new RegExp(`Page: «Sign in» — ${site.origin.replace(/\./g, '\\.')}`));
    assert.equal(steps.length, before);
  });
});
