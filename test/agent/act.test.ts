import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionCache } from '../../src/agent/act/cache';
import { PageActions } from '../../src/agent/act/pageActions';
import type { AgentEvent } from '../../src/agent/events';
import { runAgent } from '../../src/agent/loop';
import { openaiProvider } from '../../src/agent/providers/openai';
import type { ChatProvider } from '../../src/agent/types';
import { findTool, allTools } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { startHarness, type Harness } from '../actions/harness';
import { startOpenAIServer, type LlmServer, type Script, type ScriptedRequest } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { refOf } from '../skills/helpers';

const LOGIN = (button: string, extra = '') => `<title>Login</title><form onsubmit="event.preventDefault()">
<label>Email <input id=email></label><button type=button onclick="document.title='signed in'">${button}</button>${extra}</form>
<button onclick="document.title='DELETED'">Delete account</button>`;
// The same name in another place: the button now sits in a different region of the page.
const MOVED = `<title>Login</title><form onsubmit="event.preventDefault()"><label>Email <input id=email></label></form>
<nav><a href="#">Home</a><button type=button onclick="document.title='nav sign in'">Sign in</button></nav>`;
// The cached place now holds another button and no "Sign in" anywhere.
const SWAPPED = `<title>Login</title><form onsubmit="event.preventDefault()">
<label>Email <input id=email></label><button type=button onclick="document.title='DELETED'">Delete account</button></form>`;

const isResolver = (r: ScriptedRequest) => r.body.tools?.some((t: any) => t.function?.name === 'choose_elements');

describe('act / observe / extract and the action cache (real Chromium, scripted model)', function () {
  this.timeout(120_000);
  let h: Harness;
  let site: TestServer;
  let cacheDir: string;
  const servers: LlmServer[] = [];
  before(async () => {
    site = await startServer({ '/login': LOGIN('Sign in'), '/renamed': LOGIN('Log in'), '/moved': MOVED, '/swapped': SWAPPED, '/login2': LOGIN('Sign in') });
    cacheDir = mkdtempSync(join(tmpdir(), 'ba-act-cache-'));
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await site?.close();
    await Promise.all(servers.map((s) => s.close()));
    rmSync(cacheDir, { recursive: true, force: true });
  });

  async function model(script: Script): Promise<{ server: LlmServer; provider: ChatProvider }> {
    const server = await startOpenAIServer(script);
    servers.push(server);
    return { server, provider: openaiProvider({ apiKey: 'k', model: 'm', baseURL: server.baseURL, stream: false, vision: false }) };
  }
  const actions = (provider: ChatProvider, cache?: ActionCache) =>
    new PageActions({ provider, ctx: h.ctx, cache, signal: new AbortController().signal, execute: (name, input) => runTool(findTool(name)!, input, h.ctx) });
  const title = async () => (await h.ctx.tab()).evaluate<string>('document.title');
  /** The resolver a model would be: finds the named button in the snapshot it was sent, or nothing. */
  const pick = (name: string): Script => (r) => {
    try {
      return { toolCalls: [{ name: 'choose_elements', input: { candidates: [{ ref: refOf(r.allText, 'button', name), action: 'click' }] } }] };
    } catch {
      return { toolCalls: [{ name: 'choose_elements', input: { candidates: [] } }] };
    }
  };

  it('resolves with one model call, then replays from the cache with none; the cache file is readable JSON', async () => {
    const cache = new ActionCache(join(cacheDir, 'a.json'));
    const { server, provider } = await model(pick('Sign in'));
    await h.ok('browser_navigate', { url: `${site.url}login` });
    const first = await actions(provider, cache).act('click the Sign in button');
    assert.ok(first.ok, first.text);
    assert.equal(first.modelCalls, 1);
    assert.equal(await title(), 'signed in');
    assert.equal(server.requests.length, 1);
    assert.ok(isResolver(server.requests[0]));

    await h.ok('browser_navigate', { url: `${site.url}login` });
    const again = await actions(provider, cache).act('Click the  Sign in button');
    assert.ok(again.ok && again.cached, again.text);
    assert.equal(again.modelCalls, 0);
    assert.equal(server.requests.length, 1, 'no model call on the repeat');
    assert.equal(await title(), 'signed in');

    const file = JSON.parse(readFileSync(join(cacheDir, 'a.json'), 'utf8'));
    assert.equal(file.entries.length, 1);
    assert.deepEqual({ ...file.entries[0], placement: undefined, createdAt: undefined, usedAt: undefined }, {
      instruction: 'click the Sign in button', site: site.origin, target: { role: 'button', name: 'Sign in' }, action: { tool: 'browser_click', args: {} }, hits: 1,
      placement: undefined, createdAt: undefined, usedAt: undefined,
    });
  });

  it('a renamed button: the cached target does not verify, the model is asked again and the entry is updated', async () => {
    const cache = new ActionCache(join(cacheDir, 'b.json'));
    const first = await model(pick('Sign in'));
    await h.ok('browser_navigate', { url: `${site.url}login` });
    assert.ok((await actions(first.provider, cache).act('sign in')).ok);
    const second = await model(pick('Log in'));
    await h.ok('browser_navigate', { url: `${site.url}renamed` });
    const r = await actions(second.provider, cache).act('sign in');
    assert.ok(r.ok && !r.cached, r.text);
    assert.equal(second.server.requests.length, 1);
    assert.equal(await title(), 'signed in');
    // The page variant is another entry (its region differs by the button's text); both stay.
    assert.deepEqual((await cache.list()).map((e) => e.target.name).sort(), ['Log in', 'Sign in']);
  });

  it('never clicks the wrong element: another button in the cached place, or the same name elsewhere, goes to the model', async () => {
    const cache = new ActionCache(join(cacheDir, 'c.json'));
    const first = await model(pick('Sign in'));
    await h.ok('browser_navigate', { url: `${site.url}login` });
    assert.ok((await actions(first.provider, cache).act('sign in')).ok);

    const none = await model(pick('Sign in'));
    await h.ok('browser_navigate', { url: `${site.url}swapped` });
    const r = await actions(none.provider, cache).act('sign in');
    assert.ok(!r.ok);
    assert.match(r.text, /TARGET_NOT_FOUND: no element on the page fits "sign in"\. Nothing was done\./);
    assert.equal(none.server.requests.length, 1, 'asked the model');
    assert.equal(await title(), 'Login', 'the button in the cached place was not clicked');

    const moved = await model(pick('Sign in'));
    await h.ok('browser_navigate', { url: `${site.url}moved` });
    const m = await actions(moved.provider, cache).act('sign in');
    assert.ok(m.ok && !m.cached, 'same role and name, other region: verified by the model, not the cache');
    assert.equal(moved.server.requests.length, 1);
    assert.equal(await title(), 'nav sign in');
  });

  it('does not cache what was typed into a password field', async () => {
    const cache = new ActionCache(join(cacheDir, 'd.json'));
    site.route('/pw', '<title>pw</title><label>Password <input type=password id=p></label>');
    const { provider } = await model((r) => ({ toolCalls: [{ name: 'choose_elements', input: { candidates: [{ ref: refOf(r.allText, 'textbox', 'Password'), action: 'type', text: 'hunter2' }] } }] }));
    await h.ok('browser_navigate', { url: `${site.url}pw` });
    assert.ok((await actions(provider, cache).act('type hunter2 into the password')).ok);
    assert.equal((await cache.list()).length, 0);
  });

  it('observe lists candidates without acting; extract validates against the schema and retries once', async () => {
    const { provider } = await model((r) => {
      if (isResolver(r)) return { toolCalls: [{ name: 'choose_elements', input: { candidates: [{ ref: refOf(r.allText, 'button', 'Sign in'), action: 'click', description: 'signs in' }, { ref: refOf(r.allText, 'textbox', 'Email'), action: 'type', text: 'a@b.c' }, { ref: '9999', action: 'click' }] } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'return_data', input: { data: { buttons: 'two' } } }] };
      assert.match(r.lastText, /did not match the schema: buttons/);
      return { toolCalls: [{ name: 'return_data', input: { data: { buttons: ['Sign in', 'Delete account'] } } }] };
    });
    await h.ok('browser_navigate', { url: `${site.url}login2` });
    const pa = actions(provider);
    const o = await pa.observe('sign in');
    assert.match(o, /^Candidates for "sign in" \(best first; nothing was done\):\n\[\w+\] button "Sign in" — click: signs in\n\[\w+\] textbox "Email" — type "a@b.c"$/);
    assert.equal(await title(), 'Login', 'observe did nothing');
    const x = await pa.extract('the names of the buttons', { type: 'object', properties: { buttons: { type: 'array', items: { type: 'string' } } }, required: ['buttons'] });
    assert.deepEqual(x, { ok: true, data: { buttons: ['Sign in', 'Delete account'] }, modelCalls: 2 });
  });

  it('in the agent loop: the planner calls act; the first run resolves, the repeat run hits the cache', async () => {
    const cache = new ActionCache(join(cacheDir, 'e.json'));
    const run = async () => {
      const { server, provider } = await model((r) => {
        if (isResolver(r)) return pick('Sign in')(r);
        const done = /Resolved to button|Done from the action cache/.test(r.allText);
        return done ? { toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok' } }] } : { toolCalls: [{ name: 'act', input: { instruction: 'click the Sign in button' } }] };
      });
      await h.ok('browser_navigate', { url: `${site.url}login` });
      const events: AgentEvent[] = [];
      const outcome = await runAgent({ task: 'sign in', provider, tools: allTools, ctx: h.ctx, mode: 'dom', maxSteps: 5, signal: new AbortController().signal, actionCache: cache, onEvent: (e) => events.push(e) });
      return { outcome, resolverCalls: server.requests.filter(isResolver).length, cards: events.filter((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end').map((e) => `${e.tool}: ${e.summary}`) };
    };
    const a = await run();
    assert.equal(a.outcome.status, 'success', a.outcome.summary);
    assert.equal(a.resolverCalls, 1);
    assert.ok(a.cards.some((c) => c.startsWith('browser_click')), 'the click ran through the normal tool path');
    const b = await run();
    assert.equal(b.resolverCalls, 0);
    assert.ok(b.cards.some((c) => /^act: cache: Done from the action cache/.test(c)), b.cards.join('\n'));
    assert.equal(await title(), 'signed in');
  });
});
