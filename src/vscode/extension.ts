import * as vscode from 'vscode';
import { legacyHistory, LEGACY_HISTORY_KEY } from './chat/chatView';
import { registerAgent, type AgentApi } from './agent/register';
import { importLegacyChats, listHistory, openThread, saveConversation, saveTranscript } from './chat/chatHistory';
import { AUDIT_OUTCOME } from '../audit/words';
import { registerAudit, type AuditApi } from './audit/register';
import { SessionManager } from '../session/manager';
import { registerSkills, type SkillsApi } from './skills/register';
import { resolveRef } from '../snapshot';
import { allTools } from '../tools/registry';
import { registerCopilotTools } from './copilot';
import { createLog } from './log';
import { replayDeps } from './replayDeps';
import type { SafetyApi } from './safety';
import { LiveViewPanel } from './liveView';
import { threadDirs } from '../audit/thread';
import { registerSessionCommands } from './sessionCommands';
import { registerSessionsView } from './sessionsView';
import { configureSharing } from './sharing';
import { registerWalkthroughCommands } from './walkthrough';
import { readSessionSettings } from './settings';
import { moveRenamedSettings } from './settingMovesHost';
import { createStatusBar } from './statusBar';
import { createToolContext } from './toolContext';
import { shutdown } from '../runtime/shutdown';

let sessions: SessionManager | undefined;
let audit: AuditApi | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  /** The safety gate; `setConfirmer` lets the e2e suite replace the modal. */
  safety: SafetyApi;
  audit: AuditApi;
  agent: AgentApi;
  skills: SkillsApi;
}

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  // No secret is known before the safety gate (and its vault) exists; from then on every line passes the vault.
  let vault: SafetyApi['vault'] | undefined;
  const { channel, logger } = createLog((text) => vault?.redact(text) ?? text);
  configureSharing(context.extensionPath);
  const s = (sessions = new SessionManager(readSessionSettings, logger));
  const liveView = new LiveViewPanel(s, context.extensionUri);
  context.subscriptions.push(
    channel,
    createStatusBar(s),
    ...registerSessionCommands(s, channel),
    liveView,
    vscode.commands.registerCommand('browserAgent.openLiveView', () => liveView.show()),
    ...registerWalkthroughCommands(context),
    ...registerSessionsView(s),
  );
  const a = (audit = registerAudit(context, channel));
  const skills = registerSkills(context, a.recorder.root, channel);

  // Copilot: every call goes through the safety gate and into one implicit audit task per day and window;
  // Run Tool…, a person's call, into one of its own.
  const safety = registerCopilotTools(context, s, channel, {
    copilot: (call) => a.hooks({ ...call, implicit: { source: 'copilot', per: 'day' } }),
    runTool: (call) => a.hooks({ ...call, implicit: { source: 'command', per: 'day' } }),
  });
  vault = safety.vault;
  a.setReplayDeps(replayDeps(s, safety));

  // Chat panel: the same tools, gate and secrets; one audit task, so one tool pipeline, per run (the tools are
  // the same in every pipeline of the window: secrets resolved for the handler only).
  const agent = registerAgent(context, {
    sessions: s,
    tools: () => allTools.map(safety.pipeline().tool),
    hooks: ({ goal, provider, thread }) => {
      const task = a.recorder.startTask(goal, { provider, source: 'chat', ...(thread ? { thread } : {}) });
      return {
        taskId: task.id,
        ...safety.pipeline((call) => a.hooks({ ...call, task })).hooks(),
        end: async (outcome, record, conversation) => {
          await task.end(AUDIT_OUTCOME[outcome.status], outcome.summary, outcome.status);
          // The Task History says how it ended before the panel does (the panel waits for this), never Running after.
          await a.refreshNow();
          // The conversation as seen, and the model's side of the thread, next to the log (secrets were already redacted in the events).
          await saveTranscript(task.dir, safety.vault.redactDeep(record));
          if (conversation.length) await saveConversation(task.dir, safety.vault.redactDeep(conversation));
          a.refresh();
        },
      };
    },
    history: { list: () => listHistory(a.root), open: (id) => openThread(a.root, id), clear: () => a.clearHistory(), onDidChange: a.onDidChange },
    toolContext: () => createToolContext(s),
    resolveRef,
    log: (line) => logger.warn(line),
    liveView,
    recorded: { threadDirs: (id) => threadDirs(a.root, id), replay: (dirs, view) => a.replay(dirs, view) },
  });
  // The chat's earlier, separate history goes into the one store once; the old records stay where they were.
  const legacy = legacyHistory(context.globalState.get(LEGACY_HISTORY_KEY));
  if (legacy.length && !context.globalState.get('browserAgent.agent.historyImported')) {
    void importLegacyChats(a.root, legacy).then(
      async (n) => {
        await context.globalState.update('browserAgent.agent.historyImported', true);
        if (n) logger.info(`Moved ${n} earlier chat conversation(s) into the task history.`);
        a.refresh();
      },
      (e) => logger.warn(`Could not import the earlier chat history: ${e}`),
    );
  }
  // Renamed settings: the readers take the old key until this has moved it (settingMoves.ts).
  void moveRenamedSettings((line) => logger.info(line)).catch((e) => logger.warn(`Could not move renamed settings: ${e}`));
  logger.info('Browser Agent activated.');
  return { sessions: s, safety, audit: a, agent, skills };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  const parts = { sessions, audit };
  audit = undefined;
  sessions = undefined;
  await shutdown(parts); // the browser first, then the audit (fsyncs open task logs) once cut calls are recorded
}
