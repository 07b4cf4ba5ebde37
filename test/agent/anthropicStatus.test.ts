import assert from 'node:assert/strict';
import { closedPort } from '../helpers/servers';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { anthropicStatus } from '../../src/vscode/agent/anthropicStatus';
import { startAnthropicServer, type LlmServer } from '../helpers/llmServers';

const MODEL = 'scripted-claude';
const reply = async () => ({ text: 'Hello.' });

/** What a run does without a saved key (the factory sends a placeholder): whether the endpoint answers it. */
async function runAnswers(baseURL: string): Promise<boolean> {
  const p = anthropicProvider({ apiKey: 'none', model: MODEL, baseURL, stream: false });
  try {
    await p.send({ system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], signal: new AbortController().signal });
    return true;
  } catch {
    return false;
  }
}

describe('model setup: Anthropic\'s status says whether a run can start, also without a key', () => {
  const servers: LlmServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const serve = async (opts: Parameters<typeof startAnthropicServer>[1]) => {
    const s = await startAnthropicServer(reply, opts);
    servers.push(s);
    return s;
  };

  it('a base URL whose endpoint refuses requests without a key: not ready, says so (the green dot was wrong)', async () => {
    const s = await serve({ apiKey: 'sk-right', models: [MODEL] });
    const st = await anthropicStatus(s.baseURL, MODEL, undefined);
    assert.equal(st.ready, false);
    assert.equal(st.detail, `No API key · ${s.baseURL} refused a request without an API key (401)`);
    assert.equal(await runAnswers(s.baseURL), false, 'and a run would indeed be refused');
  });

  it('a local proxy that needs no key: ready, and says it answers without one', async () => {
    const s = await serve({ models: [MODEL, 'other'] });
    const st = await anthropicStatus(s.baseURL, MODEL, undefined);
    assert.equal(st.ready, true);
    assert.equal(st.detail, `No API key · ${s.baseURL} answers without one · 2 models`);
    assert.equal(await runAnswers(s.baseURL), true, 'and a run indeed works');
  });

  it('a proxy with no model list: ready (it is up and refused nothing), and says a key is asked for if it refuses', async () => {
    const s = await serve({});
    const st = await anthropicStatus(`${s.baseURL}/`, MODEL, undefined);
    assert.equal(st.ready, true);
    assert.match(st.detail, /answers \(no model list: 404\); a key is asked for if it refuses a run$/);
  });

  it('nothing listening: not ready, names the endpoint and why', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const st = await anthropicStatus(url, MODEL, undefined);
    assert.equal(st.ready, false);
    assert.equal(st.detail, `No API key · ${url} does not answer (ECONNREFUSED)`);
  });

  it('no key and no base URL: not ready without asking anyone; a saved key: ready without a probe', async () => {
    const asked: string[] = [];
    const probe = async (u: string) => (asked.push(u), { reachable: true, status: 200, models: [] });
    assert.deepEqual(await anthropicStatus('', MODEL, undefined, probe), { provider: 'anthropic', title: 'Anthropic', endpoint: 'https://api.anthropic.com', model: MODEL, keySaved: false, ready: false, detail: 'No API key saved' });
    const saved = await anthropicStatus('http://127.0.0.1:1', MODEL, 'sk-x', probe);
    assert.equal(saved.ready, true);
    assert.equal(saved.detail, 'API key saved · http://127.0.0.1:1');
    assert.deepEqual(asked, []);
  });
});
