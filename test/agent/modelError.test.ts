// A model's failures as a person reads them in the chat panel: real SDKs (OpenAI, Anthropic) against scripted local
// endpoints that answer 401, 404 and 500, and a port where nothing listens. Each message names the endpoint and
// comes with the buttons that fix it; the endpoint probe tells reachable from not and lists the models.
import assert from 'node:assert/strict';
import { closedPort } from '../helpers/servers';
import { runAgent } from '../../src/agent/loop';
import { describeModelError, type ModelEndpoint } from '../../src/agent/providers/modelError';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { openaiProvider } from '../../src/agent/providers/openai';
import { probeModels } from '../../src/agent/providers/probe';
import { withRetry } from '../../src/agent/providers/retry';
import type { ChatProvider } from '../../src/agent/types';
import { NO_POLICY } from '../../src/contract/types';
import { startAnthropicServer, startOpenAIServer, type LlmServer } from '../helpers/llmServers';

/** The error one request to the provider throws (retries short, so a 500 is tried 3 times quickly). */
async function failure(p: ChatProvider): Promise<{ error: unknown; tries: number }> {
  let tries = 1;
  const retried = withRetry(p, { retries: 2, baseDelayMs: 10, maxDelayMs: 20, onRetry: () => tries++ });
  try {
    await retried.send({ system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], signal: new AbortController().signal });
  } catch (error) {
    return { error, tries };
  }
  throw new Error('the request did not fail');
}

describe('model errors: named endpoint, the fix as a button', function () {
  this.timeout(30_000);
  const servers: LlmServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const openai = async (status: number | undefined, opts: { models?: string[]; apiKey?: string } = {}) => {
    const s = await startOpenAIServer(() => (status ? { status } : { text: 'ok' }), opts);
    servers.push(s);
    return s;
  };
  const ep = (url: string, model = 'm1'): ModelEndpoint => ({ provider: 'openai', url, model });

  it('a wrong key (401) names the endpoint and offers Set API Key first', async () => {
    const s = await openai(undefined, { apiKey: 'right' });
    const { error, tries } = await failure(openaiProvider({ apiKey: 'wrong', model: 'm1', baseURL: s.baseURL, vision: false }));
    const p = describeModelError(error, ep(s.baseURL), tries);
    assert.equal(tries, 1, 'a 401 is not retried');
    assert.match(p.message, new RegExp(`^The endpoint ${s.baseURL.replace(/[.:/]/g, '\\$&')} refused the API key \\(401\\)`));
    assert.deepEqual(p.fixes, ['Set API Key', 'Retry', 'Show Log']);
  });

  it('a model the endpoint does not have (404) offers Choose Model', async () => {
    const s = await openai(404);
    const { error } = await failure(openaiProvider({ apiKey: '', model: 'no-such-model', baseURL: s.baseURL, vision: false }));
    const p = describeModelError(error, ep(s.baseURL, 'no-such-model'));
    assert.match(p.message, /has no model "no-such-model" or no such API path \(404\)/);
    assert.match(p.message, new RegExp(s.baseURL.replace(/[.:/]/g, '\\$&')));
    assert.equal(p.fixes[0], 'Choose Model');
  });

  it('a server error (500) says how many times it was tried and offers Retry', async () => {
    const s = await openai(500);
    const { error, tries } = await failure(openaiProvider({ apiKey: '', model: 'm1', baseURL: s.baseURL, vision: false }));
    assert.equal(s.requests.length, 3, 'retried twice');
    const p = describeModelError(error, ep(s.baseURL), tries);
    assert.match(p.message, /failed with 500 \(tried 3 times\): scripted 500/);
    assert.deepEqual(p.fixes, ['Retry', 'Show Log']);
  });

  it('nothing listening (connection refused) says so and offers Retry and Set Base URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { error, tries } = await failure(openaiProvider({ apiKey: '', model: 'm1', baseURL: url, vision: false }));
    const p = describeModelError(error, ep(url), tries);
    assert.equal(tries, 3, 'a refused connection is retried like a dropped one');
    assert.match(p.message, new RegExp(`Could not connect to the endpoint ${url.replace(/[.:/]/g, '\\$&')}: nothing answers there \\(connection refused\\)`));
    assert.deepEqual(p.fixes, ['Retry', 'Set Base URL', 'Show Log']);
  });

  it('the Anthropic SDK\'s 401 reads the same way', async () => {
    const s = await startAnthropicServer(() => ({ status: 401 }));
    servers.push(s);
    const { error } = await failure(anthropicProvider({ apiKey: 'sk-wrong', model: 'claude-x', baseURL: s.baseURL }));
    const p = describeModelError(error, { provider: 'anthropic', url: s.baseURL, model: 'claude-x' });
    assert.match(p.message, /refused the API key \(401\)/);
    assert.equal(p.fixes[0], 'Set API Key');
  });

  it('a run the model never answered ends in error with no step, the error kept for the panel', async () => {
    const s = await openai(undefined, { apiKey: 'right' });
    let last: unknown;
    const inner = openaiProvider({ apiKey: 'wrong', model: 'm1', baseURL: s.baseURL, vision: false });
    const provider: ChatProvider = { ...inner, send: (r) => inner.send(r).catch((e) => Promise.reject((last = e))) };
    const ctx = { browser: () => Promise.reject(new Error('no browser in this test')), tab: () => Promise.reject(new Error('no tab')), settings: { allowedSchemes: [], downloadsDir: '/tmp', maxWaitMs: 1000 }, guard: NO_POLICY } as never;
    const outcome = await runAgent({ task: 'anything', provider, mode: 'dom', tools: [], ctx, signal: new AbortController().signal, maxSteps: 3 });
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.steps, 0, 'so the panel puts the task back into the box');
    assert.match(describeModelError(last, ep(s.baseURL)).message, /refused the API key/);
  });
});

describe('endpoint probe (GET /models)', function () {
  this.timeout(15_000);
  const servers: LlmServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  it('lists the models of an endpoint that answers', async () => {
    const s = await startOpenAIServer(() => ({ text: 'ok' }), { models: ['qwen3:8b', 'llama3.2:3b'] });
    servers.push(s);
    assert.deepEqual(await probeModels(s.baseURL), { reachable: true, status: 200, models: ['llama3.2:3b', 'qwen3:8b'] });
  });

  it('tells a refused key (401) and an endpoint without a model list (404) from one that is down', async () => {
    const keyed = await startOpenAIServer(() => ({ text: 'ok' }), { models: ['m1'], apiKey: 'right' });
    const bare = await startOpenAIServer(() => ({ text: 'ok' }));
    servers.push(keyed, bare);
    assert.equal((await probeModels(keyed.baseURL, 'wrong')).status, 401);
    assert.deepEqual((await probeModels(keyed.baseURL, 'right')).models, ['m1']);
    assert.deepEqual(await probeModels(bare.baseURL), { reachable: true, status: 404, models: [] });
    const down = await probeModels(`http://127.0.0.1:${await closedPort()}/v1`);
    assert.equal(down.reachable, false);
    assert.equal(down.error, 'ECONNREFUSED');
  });
});
