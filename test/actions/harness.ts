import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScope } from '../../src/actions/scope';
import type { Scope } from '../../src/actions/scopeTypes';
import { SessionManager } from '../../src/session/manager';
import type { CdpSession } from '../../src/session/cdp';
import type { ElementHandle } from '../../src/snapshot/types';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { NO_POLICY, type ToolContext, type ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';

export interface Harness {
  ctx: ToolContext;
  sessions: SessionManager;
  downloadsDir: string;
  /** Runs a tool by name through runTool, as every front door does. */
  call(name: string, input?: unknown): Promise<ToolResult>;
  /** The text of a result (throws with the text when it is an error and `ok` is expected). */
  ok(name: string, input?: unknown): Promise<string>;
  scope(): Promise<Scope>;
  close(): Promise<void>;
}

export async function startHarness(settings: Partial<ToolContext['settings']> = {}): Promise<Harness> {
  const downloadsDir = mkdtempSync(join(tmpdir(), 'ba-actions-dl-'));
  const sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
  const ctx: ToolContext = {
    sessions,
    browser: () => sessions.ensure(),
    tab: async () => (await sessions.ensure()).activeTab(),
    settings: { allowedSchemes: [], downloadsDir, maxWaitMs: 15_000, ...settings },
    // The tools themselves are under test here, not the policy (test/safety has that).
    guard: NO_POLICY,
  };
  const call = async (name: string, input: unknown = {}) => {
    const tool = findTool(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return runTool(tool, input, ctx);
  };
  return {
    ctx,
    sessions,
    downloadsDir,
    call,
    async ok(name, input) {
      const r = await call(name, input);
      const t = textOf(r);
      if (r.isError) throw new Error(`${name} failed: ${t}`);
      return t;
    },
    scope: () => openScope(ctx),
    async close() {
      await sessions.close();
      rmSync(downloadsDir, { recursive: true, force: true });
    },
  };
}

export function textOf(r: ToolResult): string {
  return r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
}

/**
 * An ElementHandle built the way the snapshot layer will: a node found by a script in the page
 * (or in an out-of-process frame's session), identified by backendNodeId.
 */
export async function handleOf(session: CdpSession, expression: string, role = 'element', name = '', frameId = 'main'): Promise<ElementHandle> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression });
  if (exceptionDetails || !result.objectId) throw new Error(`no element for ${expression}`);
  const { node } = await session.send('DOM.describeNode', { objectId: result.objectId });
  return { ref: `t${node.backendNodeId}`, role, name, session, frameId, backendNodeId: node.backendNodeId };
}

export async function pageHandle(h: Harness, expression: string, role?: string, name?: string): Promise<ElementHandle> {
  const s = await h.scope();
  return handleOf(s.page, expression, role, name);
}

export async function evalPage<T = unknown>(h: Harness, expression: string): Promise<T> {
  const s = await h.scope();
  const r = await s.page.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  return r.result.value as T;
}
