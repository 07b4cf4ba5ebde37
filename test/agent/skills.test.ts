import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../src/agent/events';
import { runAgent } from '../../src/agent/loop';
import { fitsTask } from '../../src/agent/skillGuide';
import { openaiProvider } from '../../src/agent/providers/openai';
import { SkillLibrary } from '../../src/skills/library';
import type { SkillHit } from '../../src/skills/types';
import { allTools } from '../../src/tools/registry';
import { crossSite } from '../helpers/chromium';
import { startOpenAIServer, type LlmServer, type Script } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { startHarness, type Harness } from '../actions/harness';
import { refOf, tempSkillsDir, writeSkill } from '../skills/helpers';

const toolNames = (body: any): string[] => body.tools.map((t: any) => t.function.name);

describe('agent + skills: retrieval per site and allowed-tools, real loop, real Chromium, scripted model', function () {
  this.timeout(120_000);
  let h: Harness;
  let shop: TestServer;
  let dir: string;
  let lib: SkillLibrary;
  const servers: LlmServer[] = [];

  before(async () => {
    shop = await startServer({
      '/': '<title>Shop</title><h1>Shop</h1><input aria-label="Coupon"><button onclick="document.title=\'clicked\'">Apply</button><a href="/about">About</a>',
      '/about': '<title>About</title><p>About us</p>',
    });
    dir = tempSkillsDir();
    writeSkill(dir, 'shop', { name: 'Shop: apply a coupon', description: 'Apply a discount coupon at the shop', sites: [`127.0.0.1:${shop.port}`], allowedTools: ['browser_snapshot', 'browser_click', 'browser_navigate'], steps: '1. Click Apply; never type into Coupon.' });
    writeSkill(dir, 'blog', { name: 'Blog: read the about page', description: 'Read who runs the blog', sites: [`localhost:${shop.port}`], steps: '1. Read the About text.' });
    writeSkill(dir, 'far', { name: 'Airline: book a seat', description: 'Pick a seat on the airline site', sites: ['air.example'], steps: '1. Seat map.' });
    lib = new SkillLibrary([{ path: dir, source: 'workspace' }]);
    h = await startHarness();
    h.ctx.skills = lib;
  });
  after(async () => {
    await h?.close();
    await shop?.close();
    await Promise.all(servers.map((s) => s.close()));
    lib?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(task: string, script: Script) {
    const server = await startOpenAIServer(script);
    servers.push(server);
    const events: AgentEvent[] = [];
    const outcome = await runAgent({
      task, provider: openaiProvider({ apiKey: 'k', model: 'm', baseURL: server.baseURL, stream: false, vision: false }),
      tools: allTools, ctx: h.ctx, mode: 'dom', maxSteps: 12, signal: new AbortController().signal, onEvent: (e) => events.push(e),
    });
    return { outcome, server, events };
  }

  it('gives the skill for the start site, not skills for other sites; hides tools the skill does not allow; refuses them if called anyway', async () => {
    await h.ok('browser_navigate', { url: shop.url });
    const { outcome, server, events } = await run('Apply the coupon at the shop', (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Coupon'), text: 'SAVE10' } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Apply') } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'applied' } }] };
    });
    assert.equal(outcome.status, 'success', outcome.summary);
    const first = server.requests[0];
    assert.match(first.allText, /<user-skill source="workspace">\nname: Shop: apply a coupon/);
    assert.match(first.allText, /not from any web page/);
    assert.ok(!/Airline|Blog: read/.test(first.allText), 'skills for other sites stay out of the prompt');
    const offered = toolNames(first.body);
    assert.deepEqual(offered.filter((n) => n.startsWith('browser_')).sort(), ['browser_click', 'browser_navigate', 'browser_skills_search', 'browser_snapshot']);
    assert.ok(offered.includes('finish'));
    // The model typed anyway: refused by the gate every front door shares, the field untouched.
    assert.match(server.requests[1].lastText, /BLOCKED_BY_POLICY: browser_type is not allowed on this site: the skill "Shop: apply a coupon" allows only/);
    assert.equal(await (await h.ctx.tab()).evaluate<string>('document.querySelector("input").value'), '');
    assert.equal(await (await h.ctx.tab()).evaluate<string>('document.title'), 'clicked', 'allowed tools still work');
    const cards = events.filter((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end' && e.tool === 'skills');
    assert.deepEqual(cards.map((c) => c.summary), ['Skills: Shop: apply a coupon']);
  });

  it('retrieves the skills of a new site when the run gets there, once; the narrowing ends off the site', async () => {
    await h.ok('browser_navigate', { url: 'about:blank' });
    const other = crossSite(shop.url) + 'about';
    const { outcome, server } = await run('Read the about page of the blog', (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_navigate', input: { url: other } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_snapshot', input: {} }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'read it' } }] };
    });
    assert.equal(outcome.status, 'success', outcome.summary);
    assert.match(server.requests[0].allText, /Blog: read the about page/, 'at the start, found by the task words');
    assert.match(server.requests[1].lastText, /^(?![\s\S]*You reached)/, 'given at the start: not repeated on arrival');
    assert.ok(toolNames(server.requests[1].body).includes('browser_type'), 'no narrowing on a site whose skills do not declare allowed-tools');
  });

  it('a local page no skill is for: no skills step, though the shipped examples share words with the task', async () => {
    const shipped = new SkillLibrary([{ path: join(__dirname, '..', '..', '..', 'resources', 'skills'), source: 'shipped' }]);
    h.ctx.skills = shipped;
    try {
      await h.ok('browser_navigate', { url: 'about:blank' });
      const task = `Open ${shop.url}about, greet Ada and mark the page`;
      // The text index alone offers a shipped skill for another site (its steps also "open" things)…
      assert.ok((await shipped.search({ query: task, url: 'about:blank' })).some((x) => !x.siteMatch), 'a word-only hit exists');
      const { outcome, server, events } = await run(task, (r) => {
        if (r.index === 0) return { toolCalls: [{ name: 'browser_navigate', input: { url: `${shop.url}about` } }] };
        return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'read it' } }] };
      });
      assert.equal(outcome.status, 'success', outcome.summary);
      // …but the task says where it goes, and no skill is for that site: nothing in the context, no step card.
      assert.ok(!server.requests.some((q) => /<user-skill source=/.test(q.allText)), 'no skill in the context');
      assert.deepEqual(events.filter((e) => e.type === 'step-start' && e.tool === 'skills'), []);
      assert.deepEqual(events.filter((e) => e.type === 'step-end' && e.tool === 'skills'), []);
    } finally {
      h.ctx.skills = lib;
      shipped.dispose();
    }
  });

  it('at the start: a skill for another site only when the task names that site', () => {
    const hit = (sites: string[], siteMatch = false): SkillHit => ({ skill: { path: '/s', name: 'n', description: 'd', sites, body: '', source: 'shipped' }, score: 1, siteMatch });
    const github = hit(['github.com/*/*']);
    assert.equal(fitsTask(github, 'Open a new issue on GitHub for acme/app', false), true, 'named by name');
    assert.equal(fitsTask(github, 'Open https://github.com/acme/app and file a bug', false), true, 'named by URL');
    assert.equal(fitsTask(github, 'Open http://127.0.0.1:8080/greet and greet Ada', false), false, 'the task goes elsewhere');
    assert.equal(fitsTask(github, 'Open the form and greet Ada', true), false, 'the run starts on another page');
    assert.equal(fitsTask(github, 'Open the form and greet Ada', false), true, 'no page, no site named: the words decide');
    assert.equal(fitsTask(hit([]), 'Open http://127.0.0.1:8080/greet', true), true, 'a skill for any site');
    assert.equal(fitsTask(hit(['127.0.0.1:*'], true), 'x', true), true, 'a skill for the start page');
  });

  it('on arrival at a site: that site\'s skills are added to the context', async () => {
    await h.ok('browser_navigate', { url: 'about:blank' });
    const { outcome, server } = await run('Look around', (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_navigate', input: { url: shop.url } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok' } }] };
    });
    assert.equal(outcome.status, 'success');
    assert.ok(!/Shop: apply a coupon/.test(server.requests[0].allText), 'not relevant to the task at the start');
    assert.match(server.requests[1].lastText, new RegExp(`You reached http://127.0.0.1:${shop.port}\\. User-written guidance[\\s\\S]*name: Shop: apply a coupon`));
    assert.ok(!toolNames(server.requests[1].body).includes('browser_type'), 'narrowed once on the site');
  });
});
