import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { createDecider } from '../../src/safety/decider';
import { SecretVault } from '../../src/safety/secrets';
import { normalizePolicy } from '../../src/safety/settings';
import { defineTool, text, type ToolContext } from '../../src/contract/types';
import { confirmationBody, fitToBudget, PendingConfirmations, prepareCall, sizeInput } from '../../src/vscode/copilotCalls';

const ctx: ToolContext = { sessions: undefined as never, browser: () => Promise.reject(new Error('none')), tab: () => Promise.reject(new Error('none')), settings: { allowedSchemes: [], downloadsDir: tmpdir(), maxWaitMs: 1000 } };
let previewCalls = 0;
let handlerCalls = 0;
const evaluate = defineTool({
  name: 'browser_evaluate', title: 'Evaluate', description: 'Runs JS.', schema: z.object({ expression: z.string() }), risk: 'script',
  preview: async (i) => (previewCalls++, { message: `Running script ${i.expression.slice(0, 20)}`, url: 'https://app.example.com/page', title: 'App' }),
  handler: async () => (handlerCalls++, text('2')),
});
const snapshot = defineTool({ name: 'browser_snapshot', title: 'Snapshot', description: 'Snap.', schema: z.object({ maxTokens: z.number().optional() }), risk: 'read', handler: async () => text('x') });

describe('Copilot tool calls', () => {
  const decider = createDecider(() => normalizePolicy({}), async () => 'refuse', undefined, { pageFacts: async () => undefined });
  const vault = new SecretVault();

  it('prepareInvocation: present-tense message and, for confirm, what/element/page/why — without running the tool', async () => {
    const p = await prepareCall(evaluate, { expression: '1+1' }, decider, vault, ctx);
    assert.equal(p.invocationMessage, 'Running script 1+1');
    assert.ok(p.confirmation);
    assert.match(p.confirmation.title, /Running script/);
    const body = p.confirmation.lines.join('\n');
    assert.match(body, /Page: «App» — https:\/\/app\.example\.com/);
    assert.match(body, /Why: .*arbitrary JavaScript/);
    assert.match(body, /Rule: always-confirm:browser_evaluate/);
    assert.equal(handlerCalls, 0);
    assert.equal(previewCalls, 1);
  });

  it('the confirmation body is plain text: tool names and scripts read as written, no markdown escapes', async () => {
    const p = await prepareCall(evaluate, { expression: '(() => { return a_b * 2 })()' }, decider, vault, ctx);
    assert.ok(p.confirmation);
    const body = confirmationBody(p.confirmation.lines);
    assert.equal(typeof body, 'string');
    assert.match(body, /\(browser_evaluate\)/);
    assert.ok(body.includes('Running script (() => { return a'), body);
    assert.ok(!body.includes('\\'), `no backslash escapes: ${body}`);
    assert.deepEqual(body.split('\n\n'), p.confirmation.lines, 'one line per paragraph');
  });

  it('prepareInvocation survives bad input and a failing preview', async () => {
    assert.match((await prepareCall(evaluate, { expression: 5 }, decider, vault, ctx)).invocationMessage, /invalid arguments/);
    const broken = defineTool({ ...evaluate, preview: async () => { throw new Error('no browser'); } });
    const p = await prepareCall(broken, { expression: '1' }, decider, vault, ctx);
    assert.equal(p.rating.level, 'confirm', 'still rated from the tool alone');
  });

  it('no confirmation once the site was allowed for the session', async () => {
    const d = createDecider(() => normalizePolicy({}), async () => 'allow', undefined, { pageFacts: async () => undefined });
    d.allowances.allow('https://app.example.com', 'always-confirm:browser_evaluate');
    assert.equal((await prepareCall(evaluate, { expression: '1' }, d, vault, ctx)).confirmation, undefined);
  });

  it('pending confirmations match the same input regardless of key order, once', () => {
    const p = new PendingConfirmations();
    p.put('browser_click', { a: 1, b: { c: 2, d: 3 } }, { level: 'confirm', rule: 'r' });
    assert.equal(p.take('browser_click', { b: { d: 3, c: 2 }, a: 1 })?.rule, 'r');
    assert.equal(p.take('browser_click', { a: 1, b: { c: 2, d: 3 } }), undefined);
  });

  it('token budget: passed to tools with maxTokens, and text cut to it', () => {
    assert.deepEqual(sizeInput(snapshot, {}, 1000), { maxTokens: 900 });
    assert.deepEqual(sizeInput(snapshot, { maxTokens: 300 }, 1000), { maxTokens: 300 });
    assert.deepEqual(sizeInput(evaluate, { expression: 'x' }, 1000), { expression: 'x' });
    const cut = fitToBudget({ content: [{ type: 'text', text: 'a'.repeat(10_000) }, { type: 'image', data: 'AA==', mimeType: 'image/png' }] }, 100);
    assert.ok((cut.content[0] as { text: string }).text.length < 600);
    assert.match((cut.content[0] as { text: string }).text, /cut to fit the token budget/);
    assert.equal(cut.content[1].type, 'image');
  });
});
