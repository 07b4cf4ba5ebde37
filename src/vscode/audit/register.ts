import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errors';
import { createAuditHooks, type AuditHookOptions } from '../../audit/hooks';
import { AuditRecorder } from '../../audit/recorder';
import { cleanupAudit } from '../../audit/retention';
import { askToClearHistory } from './clearCommand';
import { exportFromHistory } from './exportCommand';
import { TaskHistoryProvider, type TaskItem } from './historyView';
import { replayDir, replayFromHistory, type ReplayDeps, type ReplayView } from './replayCommand';
import type { ReplayReport } from '../../audit/replay';
import type { TaskRef } from './pickTask';
import { openAuditFolder, openStep } from './stepAndFolder';

export type { ReplayDeps, ReplayView } from './replayCommand';

export interface AuditApi {
  recorder: AuditRecorder;
  /** Hooks for runTool: chat passes its task, Copilot `implicit: { source: 'copilot', per: 'day' }`. */
  hooks(opts?: AuditHookOptions): ReturnType<typeof createAuditHooks>;
  setReplayDeps(deps: ReplayDeps): void;
  refresh(): void;
  /** Refreshes now and resolves once a visible Task History has read the tasks again (a run's end, before the panel says it). */
  refreshNow(): Promise<void>;
  /** Fires whenever the Task History is read again (a task ended, a replay, a log changed on disk, Clear). */
  onDidChange: vscode.Event<void>;
  /** The audit folder: the one task history. */
  root: string;
  /** Asks, then deletes every finished task; the count, or undefined when the person said no. */
  clearHistory(): Promise<number | undefined>;
  /** Replays a recorded task (or a thread's tasks, oldest first) after asking; with `view` the caller (the chat panel) shows it. */
  replay(dir: string | readonly string[], view?: ReplayView): Promise<ReplayReport | undefined>;
  /** Ends open tasks (explicit ones as interrupted) and fsyncs their logs; call from deactivate. */
  dispose(): Promise<void>;
}

function settings() {
  const c = vscode.workspace.getConfiguration('browserAgent.audit');
  return {
    retentionDays: c.get<number>('retentionDays', 30),
    maxSizeMB: c.get<number>('maxSizeMB', 500),
    screenshots: c.get<boolean>('screenshots', true),
  };
}

/** The task history view, the audit commands, retention cleanup at activation, and the recorder. */
export function registerAudit(context: vscode.ExtensionContext, log?: vscode.LogOutputChannel): AuditApi {
  const root = join(context.globalStorageUri.fsPath, 'audit');
  const recorder = new AuditRecorder({ root, screenshots: () => settings().screenshots });
  const provider = new TaskHistoryProvider(() => root);
  let replayDeps: ReplayDeps | undefined;
  void fs.mkdir(root, { recursive: true, mode: 0o700 }).then(() => cleanupAudit(root, settings())).then(
    (r) => r.deleted.length && log?.info(`Audit: removed ${r.deleted.length} old task folder(s) by the retention settings.`),
    (e) => log?.warn(`Audit cleanup failed: ${errorMessage(e)}`),
  );

  const clear = () => askToClearHistory(root, () => provider.refresh());
  const replayPlace = () => ({ root, recorder, deps: replayDeps, refresh: () => provider.refresh() });

  const view = vscode.window.createTreeView('browserAgent.taskHistory', { treeDataProvider: provider, showCollapseAll: true });
  // Steps arrive in bursts, and other writers (an MCP server given this folder) append too.
  let timer: NodeJS.Timeout | undefined;
  const refreshSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => provider.refresh(), 300);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '*/log.jsonl'));
  watcher.onDidCreate(refreshSoon);
  watcher.onDidChange(refreshSoon);
  watcher.onDidDelete(refreshSoon);
  context.subscriptions.push(
    view,
    provider,
    watcher,
    { dispose: () => clearTimeout(timer) },
    vscode.commands.registerCommand('browserAgent.audit.showHistory', async () => {
      provider.refresh();
      await vscode.commands.executeCommand('browserAgent.taskHistory.focus');
    }),
    vscode.commands.registerCommand('browserAgent.audit.refresh', () => provider.refresh()),
    vscode.commands.registerCommand('browserAgent.audit.clear', clear),
    // For links from the chat panel: `command:browserAgent.audit.revealTask?["<task id>"]`.
    vscode.commands.registerCommand('browserAgent.audit.revealTask', async (taskId: string) => {
      const item = typeof taskId === 'string' ? await provider.taskItem(taskId) : undefined;
      if (!item) return void vscode.window.showWarningMessage(`Browser Agent: no recorded task ${taskId}.`);
      await view.reveal(item, { select: true, focus: true, expand: true });
    }),
    vscode.commands.registerCommand('browserAgent.audit.openStep', openStep),
    vscode.commands.registerCommand('browserAgent.audit.replay', (item?: TaskRef) => replayFromHistory(replayPlace(), item)),
    vscode.commands.registerCommand('browserAgent.audit.export', (item?: TaskRef) => exportFromHistory(root, item)),
    vscode.commands.registerCommand('browserAgent.audit.openFolder', (item?: TaskItem) => openAuditFolder(root, item)),
  );

  return {
    recorder,
    hooks: (opts) => {
      const hooks = createAuditHooks(recorder, opts);
      return { decide: hooks.decide, onStep: async (ev) => { await hooks.onStep(ev); refreshSoon(); } };
    },
    setReplayDeps: (deps) => (replayDeps = deps),
    refresh: refreshSoon,
    refreshNow: () => {
      clearTimeout(timer);
      return view.visible ? provider.read() : (provider.refresh(), Promise.resolve());
    },
    onDidChange: provider.onDidChangeTreeData,
    root,
    clearHistory: clear,
    replay: (dir, view) => replayDir(replayPlace(), dir, view),
    dispose: () => recorder.dispose(),
  };
}
