import assert from 'node:assert/strict';
import { createDecider, type ConfirmRequest, type Decider } from '../../src/safety/decider';
import { SecretVault, mapSecretSource } from '../../src/safety/secrets';
import { redactingStepHook, secureTool } from '../../src/safety/secureTool';
import { normalizePolicy, type PolicySettings } from '../../src/safety/settings';
import { sleep } from '../../src/session/launcher';
import { SessionManager } from '../../src/session/manager';
import type { Tab } from '../../src/session/tab';
import { findTool } from '../../src/tools/registry';
import { runTool, type StepEvent } from '../../src/runtime/runner';
import type { ToolContext, ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { toolContext } from '../helpers/tools';

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

/** The ref of `role "name"` in snapshot text, frame refs (f1:2) included. */
function refIn(snapshot: string, role: string, name: string): string {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} "${name}"`).exec(snapshot);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${snapshot}`);
  return m[1];
}

/**
 * The safety gate at the points only the browser knows the answer (where a page or frame really is,
 * what has focus), with the registry's real tools in real Chromium. Redirects, popups, downloads and
 * typed passwords through the same tools: realTools.test.ts.
 */
describe('safety in real Chromium: frames, landed pages, focus and secrets', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let ctx: ToolContext;
  let site: TestServer;
  let other: TestServer;
  let policy: PolicySettings;
  let vault: SecretVault;
  const asked: ConfirmRequest[] = [];
  const steps: StepEvent[] = [];

  const decider = (p: () => PolicySettings = () => policy): Decider => createDecider(p, async (req) => (asked.push(req), 'allow'), undefined, { vault });
  const call = (name: string, input: unknown, d: Decider = decider()) =>
    runTool(secureTool(findTool(name)!, vault), input, ctx, { decide: d.decide, onStep: redactingStepHook(vault, (e) => void steps.push(e)) });
  const snapshot = async () => textOf(await call('browser_snapshot', {}));
  const tab = (): Promise<Tab> => ctx.tab();
  /** Waits until the page's out-of-process iframe is attached. */
  const oopif = async () => {
    const t = await tab();
    for (let i = 0; i < 100 && !t.frameSessions().some((f) => f.url.includes('/frame')); i++) await sleep(50);
    return t.frameSessions().find((f) => f.url.includes('/frame'))!;
  };

  before(async () => {
    other = await startServer({
      '/landing': '<title>landing</title><button>OK</button>',
      '/frame': '<title>ad</title><button onclick="document.title=\'clicked\'">Like</button>',
    });
    site = await startServer({
      '/': '<title>home</title><button onclick="document.title=\'main clicked\'">Hello</button>',
      '/go': (_req, res) => {
        res.writeHead(302, { location: `${crossSite(other.origin)}/landing` });
        res.end();
      },
      '/framed': `<title>framed</title><button onclick="document.title='main clicked'">Main</button><iframe src="${crossSite(other.origin)}/frame"></iframe>`,
      '/inproc': `<title>inproc</title><iframe src="${other.origin}/frame"></iframe>`,
      '/checkout': '<title>Checkout</title><label for=p>PIN</label><input id=p type=password><button id=pay>Pay now</button>',
      '/login': '<title>Sign in</title><form><label for=u>User</label><input id=u><label for=p>Password</label><input id=p type=password><button>Sign in</button></form>',
    });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    ctx = toolContext(sessions, { maxWaitMs: 5000 });
  });
  after(async () => {
    await sessions?.close();
    await site?.close();
    await other?.close();
  });
  beforeEach(() => {
    policy = normalizePolicy({ blockedOrigins: [`localhost:${other.port}`] });
    vault = new SecretVault(mapSecretSource({ SITE_PASSWORD: 'from-the-vault-9' }));
  });

  it('a page whose origin becomes blocked is left by the session as the rules apply; reading and acting on it are refused', async () => {
    const open = decider(() => normalizePolicy({}));
    assert.equal((await call('browser_navigate', { url: `${site.origin}/go` }, open)).isError, undefined); // allowed with an empty block list
    assert.match((await tab()).url, /^http:\/\/localhost:\d+\/landing$/);
    const ok = refIn(textOf(await call('browser_snapshot', {}, open)), 'button', 'OK');
    // Under the block list, reading the page is refused, and the session has left it (it was showing when the rules applied).
    const snap = await call('browser_snapshot', {});
    assert.equal(snap.code, 'BLOCKED_BY_POLICY', textOf(snap));
    assert.match(textOf(snap), /BLOCKED_BY_POLICY: since the last call, tab \w+ showed <page-content id=\w+>http:\/\/localhost:\d+\/landing<\/page-content id=\w+> \(it was already showing when the rules applied\), which the safety policy blocks \(rule blocked-origin: .*\); the session left it for about:blank\./);
    assert.equal(await (await tab()).evaluate('location.href'), 'about:blank');
    // Its elements are gone with it: the old ref acts on nothing.
    const r = await call('browser_click', { ref: ok });
    assert.equal(r.code, 'STALE_REF', textOf(r));
    assert.equal(await (await tab()).evaluate('location.href'), 'about:blank');
  });

  it('an iframe on a blocked origin never loads', async () => {
    const nav = await call('browser_navigate', { url: `${site.origin}/framed` });
    assert.equal(nav.isError, undefined, textOf(nav));
    const snap = await snapshot();
    assert.match(snap, /button "Main"/);
    assert.doesNotMatch(snap, /"Like"/, 'the blocked frame got nothing');
  });

  it('a click into an iframe whose origin became blocked is refused; the main frame still works', async () => {
    // Loaded while its origin was allowed; the block list changes before the click.
    policy = normalizePolicy({});
    const nav = await call('browser_navigate', { url: `${site.origin}/framed` });
    assert.equal(nav.isError, undefined, textOf(nav));
    const frame = await oopif();
    assert.match(frame.url, /^http:\/\/localhost:/, 'the iframe is out of process on localhost');
    const snap = await snapshot();
    const like = refIn(snap, 'button', 'Like');
    assert.match(like, /^f\d+:/, 'a frame ref');
    policy = normalizePolicy({ blockedOrigins: [`localhost:${other.port}`] });
    const r = await call('browser_click', { ref: like });
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.match(textOf(r), /localhost/);
    const frameTitle = await frame.session.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    assert.equal(frameTitle.result.value, 'ad', 'nothing happened in the blocked frame');
    const main = await call('browser_click', { ref: refIn(snap, 'button', 'Main') });
    assert.equal(main.isError, undefined, textOf(main));
    assert.equal(await (await tab()).evaluate('document.title'), 'main clicked');
  });

  it('an in-process cross-origin iframe (same site, other port) is checked by its own origin', async () => {
    policy = normalizePolicy({});
    await call('browser_navigate', { url: `${site.origin}/inproc` });
    const { frameTree } = await (await (await tab()).session()).send('Page.getFrameTree');
    assert.ok(frameTree.childFrames?.[0]?.frame.url.startsWith(other.origin), 'an in-process cross-origin iframe');
    const like = refIn(await snapshot(), 'button', 'Like');
    policy = normalizePolicy({ blockedOrigins: [`127.0.0.1:${other.port}`] });
    const r = await call('browser_click', { ref: like });
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.match(textOf(r), new RegExp(`${other.origin.replace(/\./g, '\\.')}`));
    const title = await (await tab()).evaluate<string>(`document.querySelector('iframe').contentDocument?.title ?? 'cross-origin'`);
    assert.notEqual(title, 'clicked');
  });

  it('calls without a target are rated from the focused element (password field, Pay button)', async () => {
    await call('browser_navigate', { url: `${site.origin}/checkout` });
    const t = await tab();
    await t.evaluate(`document.getElementById('p').focus()`);
    const n0 = asked.length;
    const typed = await call('browser_type', { text: 'focus-secret-77' });
    assert.equal(typed.isError, undefined, textOf(typed));
    assert.equal(asked.length, n0 + 1);
    assert.equal(asked.at(-1)?.rating.rule, 'sensitive-field');
    assert.ok(!JSON.stringify({ typed, asked, steps }).includes('focus-secret-77'));
    assert.equal(await t.evaluate(`document.getElementById('p').value`), 'focus-secret-77');
    await t.evaluate(`document.getElementById('pay').focus()`);
    await call('browser_press_key', { key: 'Enter' });
    assert.equal(asked.at(-1)?.rating.rule, 'sensitive-target-on-sensitive-page');
    assert.match(asked.at(-1)!.rating.reason!, /Pay now/);
    const n = asked.length;
    await call('browser_press_key', { key: 'Tab' });
    assert.equal(asked.length, n, 'Tab is harmless');
  });

  it('a vault secret typed by placeholder into a password field is typed for real and shown nowhere', async () => {
    await call('browser_navigate', { url: `${site.origin}/login` });
    const snap = await snapshot();
    const typed = await call('browser_type', { ref: refIn(snap, 'textbox', 'Password'), text: '{{secret:SITE_PASSWORD}}' });
    assert.equal(typed.isError, undefined, textOf(typed));
    const t = await tab();
    assert.equal(await t.evaluate(`document.getElementById('p').value`), 'from-the-vault-9', 'the page received the real value');
    const read = await call('browser_evaluate', { script: `document.getElementById('p').value` });
    assert.match(textOf(read), /\{\{secret:SITE_PASSWORD\}\}|\[redacted\]/);
    assert.ok(!JSON.stringify({ typed, read, steps, asked }).includes('from-the-vault-9'));
    assert.match(JSON.stringify(steps.at(-2)?.input), /\{\{secret:SITE_PASSWORD\}\}/, 'the step keeps the placeholder');
  });
});
