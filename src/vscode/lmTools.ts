import * as vscode from 'vscode';
import type { ToolPipeline } from '../safety/pipeline';
import type { SessionManager } from '../session/manager';
import type { ToolDefinition, ToolResult } from '../contract/types';
import { confirmationBody, fitToBudget, PendingConfirmations, prepareCall, sizeInput } from './copilotCalls';
import type { SafetyApi } from './safety';
import { createPeekContext, createToolContext } from './toolContext';

export interface LmToolDeps {
  sessions: SessionManager;
  /** The gate and vault prepareInvocation rates with, before the call. */
  safety: SafetyApi;
  /** Copilot's front door: its calls run (and are recorded) through it. */
  pipeline: ToolPipeline;
  tools: readonly ToolDefinition[];
  log?(message: string): void;
}

function toLmResult(result: ToolResult): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult(
    result.content.map((p) => (p.type === 'text' ? new vscode.LanguageModelTextPart(p.text) : vscode.LanguageModelDataPart.image(Buffer.from(p.data, 'base64'), p.mimeType))),
  );
}

/** One Copilot tool over the shared registry entry: same validation, policy, secrets and audit as MCP. */
function lmTool(definition: ToolDefinition, deps: LmToolDeps, pending: PendingConfirmations): vscode.LanguageModelTool<unknown> {
  const { decider, vault } = deps.safety;
  const tool = deps.pipeline.tool(definition);
  return {
    async prepareInvocation(options) {
      const prepared = await prepareCall(tool, options.input, decider, vault, createPeekContext(deps.sessions));
      if (!prepared.confirmation) return { invocationMessage: prepared.invocationMessage };
      pending.put(tool.name, options.input, prepared.rating);
      const message = confirmationBody(prepared.confirmation.lines);
      return { invocationMessage: prepared.invocationMessage, confirmationMessages: { title: prepared.confirmation.title, message } };
    },
    async invoke(options, token) {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const budget = options.tokenizationOptions?.tokenBudget;
        const preconfirmed = pending.take(tool.name, options.input);
        const ctx = createToolContext(deps.sessions, abort.signal);
        const result = await deps.pipeline.run(definition, sizeInput(tool, options.input, budget), ctx, { preconfirmed });
        return toLmResult(fitToBudget(result, budget));
      } finally {
        sub.dispose();
      }
    },
  };
}

/** Registers every registry tool with Copilot (package.json declares them: npm run gen:manifest). */
export function registerLanguageModelTools(deps: LmToolDeps): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const pending = new PendingConfirmations();
  const out: vscode.Disposable[] = [];
  for (const t of deps.tools) {
    try {
      out.push(vscode.lm.registerTool(t.name, lmTool(t, deps, pending)));
    } catch (e) {
      // A tool missing from package.json (gen:manifest not run) must not break activation.
      deps.log?.(`Could not register Copilot tool ${t.name}: ${e instanceof Error ? e.message : e}`);
    }
  }
  return out;
}
