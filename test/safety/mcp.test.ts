import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { createMcpSafety, parseSafetyArgs, SAFETY_ENV } from '../../src/safety/mcp';
import { createToolPipeline } from '../../src/safety/pipeline';
import { defineTool, text, type ToolContext } from '../../src/contract/types';

const ctx: ToolContext = { sessions: undefined as never, browser: () => Promise.reject(new Error('none')), tab: () => Promise.reject(new Error('none')), settings: { allowedSchemes: [], downloadsDir: tmpdir(), maxWaitMs: 1000 } };
let ran = 0;
const evaluate = defineTool({
  name: 'browser_evaluate', title: 'Evaluate', description: 'Runs JS.', schema: z.object({ expression: z.string() }), risk: 'script',
  preview: async (i) => ({ message: `Running ${i.expression}`, url: 'https://app.example.com/', title: 'App' }),
  handler: async () => (ran++, text('42')),
});

/** A real MCP server and a real MCP client over the SDK's in-memory transport, as the MCP front door wires it. */
async function connect(argv: string[], answer?: (req: ElicitRequest) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> }) {
  const server = new McpServer({ name: 'browser-agent-test', version: '0' });
  const safety = createMcpSafety(server.server, argv, {});
  server.registerTool('browser_evaluate', { description: 'Runs JS.', inputSchema: { expression: z.string() } }, async (args) => {
    const r = await createToolPipeline({ decider: safety.decider, vault: safety.vault }).run(evaluate, args, ctx);
    return { content: r.content.filter((p) => p.type === 'text'), isError: r.isError };
  });
  const client = new Client({ name: 'test-client', version: '0' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const asked: ElicitRequest[] = [];
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req), answer(req)));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async () => {
    const r = await client.callTool({ name: 'browser_evaluate', arguments: { expression: '6*7' } });
    return { isError: !!r.isError, text: (r.content as { text: string }[])[0].text };
  };
  return { call, asked, close: () => Promise.all([client.close(), server.close()]) };
}

describe('MCP safety: elicitation, or block unless --allow-confirm-actions', () => {
  it('asks through elicitation with action, page and rule; "allow-site" is remembered', async () => {
    const before = ran;
    const c = await connect([], () => ({ action: 'accept', content: { decision: 'allow-site' } }));
    try {
      assert.equal((await c.call()).text, '42');
      assert.equal((await c.call()).text, '42');
      assert.equal(c.asked.length, 1);
      const msg = (c.asked[0].params as { message: string }).message;
      assert.match(msg, /Running 6\*7/);
      assert.match(msg, /Page: «App» — https:\/\/app\.example\.com/);
      assert.match(msg, /Rule: always-confirm:browser_evaluate/);
      assert.equal(ran - before, 2);
    } finally {
      await c.close();
    }
  });

  it('a declined elicitation is a refusal result for the model', async () => {
    const before = ran;
    const c = await connect([], () => ({ action: 'decline' }));
    try {
      const r = await c.call();
      assert.equal(r.isError, true);
      assert.match(r.text, /BLOCKED_BY_POLICY: The user declined browser_evaluate/);
      assert.equal(ran, before);
    } finally {
      await c.close();
    }
  });

  it('without elicitation, confirm means block; --allow-confirm-actions lets it run', async () => {
    const before = ran;
    const strict = await connect([]);
    try {
      assert.match((await strict.call()).text, /BLOCKED_BY_POLICY/);
      assert.equal(ran, before);
    } finally {
      await strict.close();
    }
    const lax = await connect(['--allow-confirm-actions']);
    try {
      assert.equal((await lax.call()).text, '42');
    } finally {
      await lax.close();
    }
  });

  it('flags and the env carry the policy', () => {
    const { settings, allowConfirmActions } = parseSafetyArgs(['node', 'mcp.js', '--blocked-origins', '*.evil.test,bad.test', '--allowed-origins=https://*.example.com', '--allowed-schemes', 'file'], { [SAFETY_ENV]: JSON.stringify({ sensitiveTargetElsewhere: 'confirm', blockedOrigins: ['ignored.test'] }) });
    assert.deepEqual(settings.blockedOrigins, ['*.evil.test', 'bad.test']);
    assert.deepEqual(settings.allowedOrigins, ['https://*.example.com']);
    assert.deepEqual(settings.allowedSchemes, ['file']);
    assert.equal(settings.sensitiveTargetElsewhere, 'confirm');
    assert.equal(allowConfirmActions, false);
  });
});
