import assert from 'node:assert/strict';
import { PickedModel } from '../../src/vscode/chat/pickedModel';
import type { AgentSettings } from '../../src/vscode/agent/settings';

const base: AgentSettings = {
  provider: 'vscode-lm', vscodeLmModel: 'old', anthropicModel: 'claude-x', anthropicBaseURL: '', openaiModel: 'gpt-x', openaiBaseURL: '',
  openaiVision: 'auto', toolCalling: 'native', mode: 'auto', maxSteps: 25, maxIdenticalCalls: 3, stream: true,
};

describe('chat panel: a model picked in the panel', () => {
  it('is used by a run started before its settings write has landed', async () => {
    const picked = new PickedModel();
    let stored = base;
    let land!: () => void;
    const write = new Promise<void>((r) => (land = r)).then(() => {
      stored = { ...base, vscodeLmModel: 'new' };
    });
    void picked.pick({ provider: 'vscode-lm', model: 'new', label: 'x · new' }, write);
    assert.equal(picked.applyNow(stored).vscodeLmModel, 'new', 'the picker shows the pick at once');
    const run = picked.apply(() => stored);
    let settled = false;
    void run.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, false, 'the run waits for the write');
    land();
    assert.equal((await run).vscodeLmModel, 'new');
  });

  it('switches provider and model together, and yields to later settings changes', async () => {
    const picked = new PickedModel();
    await picked.pick({ provider: 'openai', model: 'qwen3', label: 'OpenAI-compatible · qwen3' }, Promise.resolve());
    const s = await picked.apply(() => base);
    assert.equal(s.provider, 'openai');
    assert.equal(s.openaiModel, 'qwen3');
    picked.settingsChanged();
    assert.deepEqual(await picked.apply(() => base), base);
  });

  it('a failed write does not break the run; the pick still applies', async () => {
    const picked = new PickedModel();
    await picked.pick({ provider: 'anthropic', model: 'claude-y', label: 'Anthropic · claude-y' }, Promise.reject(new Error('read-only settings'))).catch(() => {});
    const s = await picked.apply(() => base);
    assert.equal(s.provider, 'anthropic');
    assert.equal(s.anthropicModel, 'claude-y');
  });
});
