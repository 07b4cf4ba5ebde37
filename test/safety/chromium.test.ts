import assert from 'node:assert/strict';
import { z } from 'zod';
import { createDecider, type ConfirmRequest } from '../../src/safety/decider';
import { assertLandedAllowed } from '../../src/safety/guard';
import { SecretVault, mapSecretSource } from '../../src/safety/secrets';
import { redactingStepHook, secureTool } from '../../src/safety/secureTool';
import { normalizePolicy, type PolicySettings } from '../../src/safety/settings';
import { BrowserSession } from '../../src/session/browserSession';
import { sleep } from '../../src/session/launcher';
import type { Tab } from '../../src/session/tab';
import { runTool, type StepEvent } from '../../src/tools/runner';
import { defineTool, text, type ToolContext } from '../../src/tools/types';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * Small real tools (the registry's own tools land on the actions branch) driving a real Chromium,
 * to prove the gate at the points where only the browser knows the answer.
 */
async function settle(tab: Tab, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await tab.evaluate<string>('document.readyState').catch(() => 'loading')) === 'complete') return;
    await sleep(25);
  }
}

const navigate = defineTool({
  name: 'browser_navigate', title: 'Navigate', description: 'Go to a URL.', schema: z.object({ url: z.string() }), risk: 'navigate',
  preview: async (i, ctx) => ({ message: `Navigating to ${i.url}`, destination: i.url, url: (await ctx.tab()).url }),
  async handler(i, ctx) {
    const tab = await ctx.tab();
    const s = await tab.session();
    await s.send('Page.navigate', { url: i.url });
    await settle(tab);
    const landed = await tab.evaluate<string>('location.href');
    try {
      assertLandedAllowed(ctx, landed);
    } catch (e) {
      await s.send('Page.navigate', { url: 'about:blank' }); // never stay on a blocked page
      await settle(tab);
      throw e;
    }
    return text(`Navigated to ${landed}`);
  },
});

/** Clicks a button by its text in the page or in its (cross-site) iframe; the preview names the frame URL. */
let clicksRun = 0;
const click = defineTool({
  name: 'browser_click', title: 'Click', description: 'Click a button by text.', schema: z.object({ text: z.string(), inFrame: z.boolean().optional(), frameId: z.string().optional() }), risk: 'input',
  async preview(i, ctx) {
    const tab = await ctx.tab();
    const frame = i.inFrame ? tab.frameSessions()[0] : undefined;
    // Like the actions' previews: the frame named by URL here, or by frame id (resolved by the decider).
    return { message: `Clicking button "${i.text}"`, url: tab.url, title: tab.title, target: { role: 'button', name: i.text, tag: 'button', frame: i.frameId ?? frame?.url } };
  },
  async handler(i, ctx) {
    clicksRun++;
    const tab = await ctx.tab();
    const frame = i.inFrame ? tab.frameSessions()[0] : undefined;
    const expr = `[...document.querySelectorAll('button')].find(b => b.textContent.trim() === ${JSON.stringify(i.text)})?.click() ?? 'clicked'`;
    if (frame) await frame.session.send('Runtime.evaluate', { expression: expr });
    else await tab.evaluate(expr);
    return text(`Clicked "${i.text}"`);
  },
});

/** Types into an input (by id) with real CDP text input; its result echoes a naive page dump, as a leaky snapshot would. */
const type = defineTool({
  name: 'browser_type', title: 'Type', description: 'Type into an input.', schema: z.object({ id: z.string(), text: z.string() }), risk: 'input',
  async preview(i, ctx) {
    const tab = await ctx.tab();
    const el = await tab.evaluate<{ type: string; name: string; inForm: boolean }>(`(() => { const e = document.getElementById(${JSON.stringify(i.id)}); return { type: e.type, name: e.labels?.[0]?.textContent ?? e.name, inForm: !!e.form }; })()`);
    return { message: `Typing "${i.text}" into ${el.name}`, url: tab.url, title: tab.title, target: { role: 'textbox', name: el.name, tag: 'input', inputType: el.type, inForm: el.inForm } };
  },
  async handler(i, ctx) {
    const tab = await ctx.tab();
    await tab.evaluate(`document.getElementById(${JSON.stringify(i.id)}).focus()`);
    await (await tab.session()).send('Input.insertText', { text: i.text });
    const dump = await tab.evaluate<string>(`[...document.querySelectorAll('input')].map(e => e.id + '=' + e.value).join('; ') + ' | ' + document.body.innerText`);
    return { content: [{ type: 'text', text: `Typed ${JSON.stringify(i.text)}. Page now: ${dump}` }], meta: { target: { name: i.id }, urlAfter: tab.url } };
  },
});

/** Types into whatever has focus, and presses Enter: previews without a target, like the real tools without a ref. */
const typeFocused = defineTool({
  name: 'browser_type', title: 'Type', description: 'Type into the focused element.', schema: z.object({ text: z.string() }), risk: 'input',
  preview: async (i, ctx) => ({ message: `Typing "${i.text}"`, url: (await ctx.tab()).url }),
  async handler(i, ctx) {
    const tab = await ctx.tab();
    await (await tab.session()).send('Input.insertText', { text: i.text });
    return text(`Typed ${JSON.stringify(i.text)}`);
  },
});
const pressEnter = defineTool({
  name: 'browser_press_key', title: 'Press key', description: 'Press a key.', schema: z.object({ key: z.string() }), risk: 'input',
  preview: async (i, ctx) => ({ message: `Pressing ${i.key}`, url: (await ctx.tab()).url, title: (await ctx.tab()).title }),
  handler: async () => text('pressed'),
});

/** Reads any expression: later outputs must not leak an earlier password either. */
const read = defineTool({
  name: 'browser_read', title: 'Read', description: 'Read.', schema: z.object({ expression: z.string() }), risk: 'read',
  preview: async (_i, ctx) => ({ message: 'Reading', url: (await ctx.tab()).url }),
  handler: async (i, ctx) => text(String(await (await ctx.tab()).evaluate(i.expression))),
});

describe('safety in real Chromium', function () {
  this.timeout(60_000);
  let browser: BrowserSession;
  let site: TestServer;
  let other: TestServer;
  let policy: PolicySettings;
  let ctx: ToolContext;

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
      '/framed': `<title>framed</title><button>Main</button><iframe src="${crossSite(other.origin)}/frame"></iframe>`,
      '/login': '<title>Sign in</title><form><label for=u>User</label><input id=u><label for=p>Password</label><input id=p type=password><button>Sign in</button></form>',
    });
    browser = await BrowserSession.launch(TEST_LAUNCH);
    ctx = { sessions: undefined as never, browser: async () => browser, tab: () => browser.activeTab(), settings: { allowedSchemes: [], downloadsDir: '/tmp', maxWaitMs: 5000 } };
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await other?.close();
  });
  beforeEach(() => {
    policy = normalizePolicy({ blockedOrigins: [`localhost:${other.port}`] });
  });

  it('a redirect into a blocked origin is caught after landing, and the page is left', async () => {
    const d = createDecider(() => policy, async () => 'allow');
    const r = await runTool(navigate, { url: `${site.origin}/go` }, ctx, { decide: d.decide });
    assert.equal(r.code, 'BLOCKED_BY_POLICY', JSON.stringify(r));
    assert.match((r.content[0] as { text: string }).text, /landed on http:\/\/localhost:\d+\/landing/);
    assert.equal(await (await browser.activeTab()).evaluate('location.href'), 'about:blank');
    // Straight to the blocked origin: refused before any request.
    const direct = await runTool(navigate, { url: `${crossSite(other.origin)}/landing` }, ctx, { decide: d.decide });
    assert.equal(direct.code, 'BLOCKED_BY_POLICY');
    assert.equal(await (await browser.activeTab()).evaluate('location.href'), 'about:blank');
  });

  it('an action on a page that ended up on a blocked origin is blocked', async () => {
    const d = createDecider(() => normalizePolicy({}), async () => 'allow');
    await runTool(navigate, { url: `${site.origin}/go` }, ctx, { decide: d.decide }); // allowed with an empty block list
    const tab = await browser.activeTab();
    assert.match(tab.url, /localhost/);
    const strict = createDecider(() => policy, async () => 'allow');
    const r = await runTool(click, { text: 'OK' }, ctx, { decide: strict.decide });
    assert.equal(r.code, 'BLOCKED_BY_POLICY');
  });

  it('an action sent into an iframe on a blocked origin is blocked; the main frame still works', async () => {
    const d = createDecider(() => policy, async () => 'allow');
    // The page itself is allowed; the iframe is a cross-site OOPIF on the blocked origin.
    const nav = await runTool(navigate, { url: `${site.origin}/framed` }, ctx, { decide: d.decide });
    assert.equal(nav.isError, undefined, JSON.stringify(nav));
    const tab = await browser.activeTab();
    for (let i = 0; i < 100 && !tab.frameSessions().some((f) => f.url.includes('/frame')); i++) await sleep(50);
    assert.ok(tab.frameSessions()[0]?.url.includes('localhost'), 'the iframe is out of process on localhost');
    const r = await runTool(click, { text: 'Like', inFrame: true }, ctx, { decide: d.decide });
    assert.equal(r.code, 'BLOCKED_BY_POLICY');
    assert.match((r.content[0] as { text: string }).text, /frame http:\/\/localhost/);
    const frameTitle = await tab.frameSessions()[0].session.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    assert.equal(frameTitle.result.value, 'ad', 'nothing happened in the blocked frame');
    const main = await runTool(click, { text: 'Main' }, ctx, { decide: d.decide });
    assert.equal(main.isError, undefined);
  });

  it('frames named by id (OOPIF and in-process cross-origin iframe) are resolved to their URL and blocked', async () => {
    site.route('/inproc', `<title>inproc</title><iframe src="${other.origin}/frame"></iframe>`);
    const d = createDecider(() => normalizePolicy({ blockedOrigins: [`127.0.0.1:${other.port}`, `localhost:${other.port}`] }), async () => 'allow');
    // Out-of-process: the frame id is the iframe target's id.
    await runTool(navigate, { url: `${site.origin}/framed` }, ctx, { decide: d.decide });
    const tab = await browser.activeTab();
    for (let i = 0; i < 100 && !tab.frameSessions().length; i++) await sleep(50);
    const before = clicksRun;
    const oopif = await runTool(click, { text: 'Like', frameId: tab.frameSessions()[0].targetId }, ctx, { decide: d.decide });
    assert.equal(oopif.code, 'BLOCKED_BY_POLICY', JSON.stringify(oopif));
    // In-process: same site (127.0.0.1), other origin (port): only the page's frame tree knows its URL.
    await runTool(navigate, { url: `${site.origin}/inproc` }, ctx, { decide: d.decide });
    const { frameTree } = await (await tab.session()).send('Page.getFrameTree');
    const child = frameTree.childFrames?.[0]?.frame;
    assert.ok(child && child.url.startsWith(other.origin), 'an in-process cross-origin iframe');
    const inproc = await runTool(click, { text: 'Like', frameId: child.id }, ctx, { decide: d.decide });
    assert.equal(inproc.code, 'BLOCKED_BY_POLICY', JSON.stringify(inproc));
    assert.match((inproc.content[0] as { text: string }).text, new RegExp(`frame ${other.origin}/frame`));
    assert.equal(clicksRun, before, 'no handler ran');
    // The main frame by its id is the page itself: allowed.
    const main = await runTool(click, { text: 'x', frameId: frameTree.frame.id }, ctx, { decide: d.decide });
    assert.equal(main.isError, undefined, JSON.stringify(main));
  });

  it('calls without a target are rated from the focused element (password field, Pay button)', async () => {
    site.route('/checkout', '<title>Checkout</title><label for=p>PIN</label><input id=p type=password><button id=pay>Pay now</button>');
    const vault = new SecretVault();
    const asked: ConfirmRequest[] = [];
    const d = createDecider(() => policy, async (req) => (asked.push(req), 'allow'), undefined, { vault });
    await runTool(navigate, { url: `${site.origin}/checkout` }, ctx, { decide: d.decide });
    const tab = await browser.activeTab();
    await tab.evaluate(`document.getElementById('p').focus()`);
    const typed = await runTool(secureTool(typeFocused, vault), { text: 'focus-secret-77' }, ctx, { decide: d.decide });
    assert.equal(asked.at(-1)?.rating.rule, 'sensitive-field');
    assert.ok(!JSON.stringify({ typed, asked }).includes('focus-secret-77'));
    assert.equal(await tab.evaluate(`document.getElementById('p').value`), 'focus-secret-77');
    await tab.evaluate(`document.getElementById('pay').focus()`);
    await runTool(pressEnter, { key: 'Enter' }, ctx, { decide: d.decide });
    assert.equal(asked.at(-1)?.rating.rule, 'sensitive-target-on-sensitive-page');
    assert.match(asked.at(-1)!.rating.reason!, /Pay now/);
    const n = asked.length;
    await runTool(pressEnter, { key: 'Tab' }, ctx, { decide: d.decide });
    assert.equal(asked.length, n, 'Tab is harmless');
  });

  it('a password typed into a real password field appears in no result, step event, question or later output', async () => {
    const password = 'Tr0ub4dor&3-unique';
    const vault = new SecretVault(mapSecretSource({ SITE_PASSWORD: 'from-the-vault-9' }));
    const asked: ConfirmRequest[] = [];
    const steps: StepEvent[] = [];
    const d = createDecider(() => policy, async (req) => (asked.push(req), 'allow'), undefined, { vault });
    const hooks = { decide: d.decide, onStep: redactingStepHook(vault, (e: StepEvent) => void steps.push(e)) };
    await runTool(navigate, { url: `${site.origin}/login` }, ctx, hooks);
    const results = [
      await runTool(secureTool(type, vault), { id: 'u', text: 'alice' }, ctx, hooks),
      await runTool(secureTool(type, vault), { id: 'p', text: password }, ctx, hooks),
      await runTool(secureTool(read, vault), { expression: `document.getElementById('p').value` }, ctx, hooks),
    ];
    const tab = await browser.activeTab();
    assert.equal(await tab.evaluate(`document.getElementById('p').value`), password, 'the page received the real password');
    assert.equal(asked.length, 1, 'typing into the password field was confirmed');
    assert.equal(asked[0].rating.rule, 'sensitive-field');
    const all = JSON.stringify({ results, steps, asked });
    assert.ok(!all.includes(password), all);
    assert.match(JSON.stringify(results[1]), /\[redacted\]/);
    assert.equal((results[2].content[0] as { text: string }).text, '[redacted]');
    assert.match(JSON.stringify(results[0]), /alice/, 'ordinary text is untouched');

    // A vault secret by placeholder: typed for real, never shown.
    await tab.evaluate(`document.getElementById('p').value = ''`);
    const viaPlaceholder = await runTool(secureTool(type, vault), { id: 'p', text: '{{secret:SITE_PASSWORD}}' }, ctx, hooks);
    assert.equal(await tab.evaluate(`document.getElementById('p').value`), 'from-the-vault-9');
    assert.ok(!JSON.stringify({ viaPlaceholder, steps, asked }).includes('from-the-vault-9'));
    assert.match(JSON.stringify(viaPlaceholder), /\{\{secret:SITE_PASSWORD\}\}/);
  });
});
