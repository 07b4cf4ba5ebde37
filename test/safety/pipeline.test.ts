import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, LOG_FILE } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { createDecider, type ConfirmRequest } from '../../src/safety/decider';
import { createToolPipeline, type CallRecorder } from '../../src/safety/pipeline';
import { mapSecretSource, SecretVault } from '../../src/safety/secrets';
import { normalizePolicy } from '../../src/safety/settings';
import { defineTool, text, type ToolContext } from '../../src/contract/types';
import { sourceFiles } from '../helpers/sources';
import { runTool } from '../../src/runtime/runner';
import { browserRunScript } from '../../src/tools/runScript';

/** A context without a browser: these tools never touch one. */
const ctx = (): ToolContext => ({ sessions: undefined as never, browser: () => Promise.reject(new Error('no browser')), tab: () => Promise.reject(new Error('no browser')), settings: { allowedSchemes: [], downloadsDir: tmpdir(), maxWaitMs: 1000 } });

/** A typing tool that says what the field now holds: the resolved secret, when it typed one. */
const type = defineTool({
  name: 'browser_type', title: 'Type', description: 'Types.', schema: z.object({ ref: z.string(), text: z.string() }), risk: 'input',
  preview: async (i) => ({ message: `Typing into ${i.ref}`, url: 'https://app.example.com/', title: 'App', target: { role: 'textbox', name: 'API key' } }),
  handler: async (i) => text(`Typed; the field now holds ${i.text}`),
});
/** A script tool: always confirmed. */
const evaluate = defineTool({
  name: 'browser_evaluate', title: 'Evaluate', description: 'Runs JS.', schema: z.object({ expression: z.string() }), risk: 'script',
  preview: async (i) => ({ message: `Running ${i.expression}`, url: 'https://app.example.com/', title: 'App', code: i.expression }),
  handler: async (i) => text(`ran ${i.expression}`),
});

/** The tool pipeline of the front doors (safety/pipeline.ts), with the real decider, vault and audit recorder. */
describe('one tool pipeline for every front door', () => {
  let root: string;
  const asked: ConfirmRequest[] = [];
  const vault = new SecretVault(mapSecretSource({ API_KEY: 'sk-live-4711' }));
  const decider = createDecider(() => normalizePolicy({}), async (req) => (asked.push(req), 'allow'), undefined, { vault, pageFacts: async () => undefined });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ba-pipeline-'));
    asked.length = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('decides, runs with the secret resolved, and records the step with the secret scrubbed and the placeholder kept', async () => {
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('a key', { source: 'mcp' });
    const pipeline = createToolPipeline({ decider, vault, record: (call) => createAuditHooks(recorder, { ...call, task }) });
    const r = await pipeline.run(type, { ref: 'e1', text: '{{secret:API_KEY}}' }, ctx());
    assert.equal(r.isError, undefined, JSON.stringify(r));
    assert.match(r.content.map((c) => (c.type === 'text' ? c.text : '')).join(), /the field now holds \S/);
    assert.doesNotMatch(JSON.stringify(r), /sk-live-4711/, 'the model never sees the value');
    await recorder.endTask('success', 'done');
    assert.doesNotMatch(readFileSync(join(task.dir, LOG_FILE), 'utf8'), /sk-live-4711/, 'nor the log');
    const [step] = (await loadTask(task.dir)).steps;
    assert.deepEqual([step.tool, step.ok], ['browser_type', true]);
    assert.deepEqual(step.input, { ref: 'e1', text: '{{secret:API_KEY}}' }, 'the placeholder stays, for replay');
  });

  it('asks the person through the decider, and records the decision and its rule', async () => {
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('a script', { source: 'mcp' });
    const pipeline = createToolPipeline({ decider, vault, record: (call) => createAuditHooks(recorder, { ...call, task }) });
    assert.equal((await pipeline.run(evaluate, { expression: '6*7' }, ctx())).isError, undefined);
    assert.equal(asked.length, 1, 'browser_evaluate is always confirmed');
    await recorder.endTask('success', 'done');
    const [step] = (await loadTask(task.dir)).steps;
    assert.deepEqual([step.tool, step.decision, step.rule, step.ok], ['browser_evaluate', 'allowed', 'always-confirm:browser_evaluate', true]);
  });

  it('hands the recorder the decision to wrap and the vault\'s values; the recorder sees each step scrubbed', async () => {
    const seen: { secrets: string[]; decided: number; steps: string[] } = { secrets: [], decided: 0, steps: [] };
    const record: CallRecorder = (call) => ({
      decide: async (...a) => (seen.decided++, call.decide(...a)),
      onStep: (e) => void (seen.steps.push(JSON.stringify(e)), seen.secrets.push(...call.knownSecrets())),
    });
    await createToolPipeline({ decider, vault, record }).run(type, { ref: 'e1', text: '{{secret:API_KEY}}' }, ctx());
    assert.equal(seen.decided, 1);
    assert.ok(seen.secrets.includes('sk-live-4711'), 'the vault knows the resolved value when the step is recorded');
    assert.equal(seen.steps.length, 1);
    assert.doesNotMatch(seen.steps[0], /sk-live-4711/);
  });

  it('preconfirmed (Copilot asked in its own dialog): that rating is not asked again; another one is', async () => {
    const pipeline = createToolPipeline({ decider, vault });
    const r = await pipeline.run(evaluate, { expression: '1' }, ctx(), { preconfirmed: { level: 'confirm', rule: 'always-confirm:browser_evaluate' } });
    assert.equal(r.isError, undefined);
    assert.equal(asked.length, 0);
    await pipeline.run(evaluate, { expression: '1' }, ctx(), { preconfirmed: { level: 'confirm', rule: 'sensitive-field' } });
    assert.equal(asked.length, 1);
  });

  it('without `record` (the MCP server with --audit-dir off) it decides and runs, and writes nothing', async () => {
    const r = await createToolPipeline({ decider, vault }).run(evaluate, { expression: '2' }, ctx());
    assert.equal(r.isError, undefined);
    assert.equal(asked.length, 1);
    assert.deepEqual(readdirSync(root), []);
  });

  it('bad input is a clear error result, recorded as a failed step, and nothing is asked', async () => {
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('bad input', { source: 'mcp' });
    const pipeline = createToolPipeline({ decider, vault, record: (call) => createAuditHooks(recorder, { ...call, task }) });
    const r = await pipeline.run(evaluate, { expression: 42 }, ctx());
    assert.equal(r.code, 'INVALID_INPUT');
    assert.match(r.content.map((c) => (c.type === 'text' ? c.text : '')).join(), /Invalid arguments for browser_evaluate: expression:/);
    assert.equal(asked.length, 0);
    await recorder.endTask('failure', 'bad input');
    const [step] = (await loadTask(task.dir)).steps;
    assert.deepEqual([step.ok, step.errorCode], [false, 'INVALID_INPUT']);
  });

  it('is assembled only in safety/pipeline.ts: no front door wires the vault, the decider or the redaction by hand', () => {
    const byHand = sourceFiles()
      .filter((f) => /\b(secureTool|redactingStepHook)\(|\.decideWith\(|\bdecider\.decide\b/.test(f.code))
      .map((f) => f.path);
    assert.deepEqual(byHand.sort(), ['safety/pipeline.ts', 'safety/secureTool.ts']);
  });

  it('browser_run_script runs only inside a pipeline: without one (a bare runTool) it refuses and runs nothing', async () => {
    const bare = await runTool(browserRunScript, { script: "await browser.navigate({ url: 'https://example.com' }); return 1;" }, ctx());
    assert.equal(bare.isError, true);
    assert.match(bare.content.map((c) => (c.type === 'text' ? c.text : '')).join(), /BLOCKED_BY_POLICY: browser_run_script runs each of its calls through the safety pipeline, and this caller provides none; nothing was run/);
    // Through the pipeline a script with no tool calls runs (and a {{secret:NAME}} in it is passed on, not refused).
    const piped = await createToolPipeline({ decider, vault }).run(browserRunScript, { script: "const t = '{{secret:API_KEY}}'; return t.length;" }, ctx());
    assert.equal(piped.isError, undefined, JSON.stringify(piped));
    assert.match(piped.content.map((c) => (c.type === 'text' ? c.text : '')).join(), /return: 18\n/, 'the script saw the placeholder, never the value');
  });
});
