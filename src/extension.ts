import * as vscode from 'vscode';
import { registerAgent, type AgentApi } from './agent/register';
import { registerAudit, type AuditApi } from './audit/register';
import { redactingStepHook, secureTool } from './safety/secureTool';
import { SessionManager } from './session/manager';
import { resolveRef } from './snapshot';
import { allTools } from './tools/registry';
import { registerCopilotTools } from './vscode/copilot';
import { createLog } from './vscode/log';
import { replayDeps } from './vscode/replayDeps';
import type { SafetyApi } from './vscode/safety';
import { LiveViewPanel } from './vscode/liveView';
import { registerSessionCommands } from './vscode/sessionCommands';
import { registerWalkthroughCommands } from './vscode/walkthrough';
import { readSessionSettings } from './vscode/settings';
import { createStatusBar } from './vscode/statusBar';
import { createToolContext } from './vscode/toolContext';

let sessions: SessionManager | undefined;
let audit: AuditApi | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  /** The safety gate; `setConfirmer` lets the e2e suite replace the modal. */
  safety: SafetyApi;
  audit: AuditApi;
  agent: AgentApi;
}

const AUDIT_OUTCOME = { success: 'success', failure: 'failure', stopped: 'cancelled', 'max-steps': 'failure', stuck: 'failure', error: 'failure' } as const;

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  const { channel, logger } = createLog();
  const s = (sessions = new SessionManager(readSessionSettings, logger));
  const liveView = new LiveViewPanel(s);
  context.subscriptions.push(
    channel,
    createStatusBar(s),
    ...registerSessionCommands(s, channel),
    liveView,
    vscode.commands.registerCommand('browserAgent.openLiveView', () => liveView.show()),
    ...registerWalkthroughCommands(context),
  );
  const a = (audit = registerAudit(context, channel));

  // The audit reads page URLs and titles itself, after the vault scrubbed the step: it must know the vault's
  // secrets (placeholder values, typed passwords) to keep them out of those too.
  const knownSecrets = () => safety.vault.known();
  // Copilot: every call goes through the safety gate and into one implicit audit task per day and window.
  const safety = registerCopilotTools(context, s, channel, a.hooks({ implicit: { source: 'copilot', per: 'day' }, knownSecrets }).onStep);
  a.setReplayDeps(replayDeps(s, safety));

  // Chat panel: the same tools, gate and secrets; one audit task per run.
  const agent = registerAgent(context, {
    sessions: s,
    tools: () => allTools.map((t) => secureTool(t, safety.vault)),
    hooks: ({ goal, provider }) => {
      const task = a.recorder.startTask(goal, { provider, source: 'chat' });
      const hooks = a.hooks({ decide: safety.decider.decide, task, knownSecrets });
      return {
        decide: hooks.decide,
        onStep: redactingStepHook(safety.vault, hooks.onStep),
        end: (outcome) => task.end(AUDIT_OUTCOME[outcome.status], outcome.summary),
      };
    },
    toolContext: () => createToolContext(s),
    resolveRef,
  });
  logger.info('Browser Agent activated.');
  return { sessions: s, safety, audit: a, agent };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  await audit?.dispose(); // fsyncs open task logs
  audit = undefined;
  await sessions?.dispose();
  sessions = undefined;
}
