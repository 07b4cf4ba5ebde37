import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errors';
import type { CallRecorder, ToolPipeline } from '../../safety/pipeline';
import type { ToolContext, ToolDefinition } from '../../contract/types';
import { exportTask } from '../../audit/export';
import { createAuditHooks, type AuditHookOptions } from '../../audit/hooks';
import { StepItem, TaskHistoryProvider, TaskItem } from './historyView';
import { stepHtml, taskDescription } from '../../audit/present';
import { listTasks, loadTask } from '../../audit/reader';
import { AuditRecorder } from '../../audit/recorder';
import { replayPlan, replayTask, type RefBinder, type ReplayEntry, type ReplayReport } from '../../audit/replay';
import type { StepRecord } from '../../audit/types';
import { clearHistory } from '../chat/chatHistory';
import { cleanupAudit } from '../../audit/retention';

/** What replay needs from the rest of the extension; the snapshot layer provides `binder`. */
export interface ReplayDeps {
  toolContext(signal: AbortSignal): ToolContext;
  /** Replay's front door: the gate of live runs (sensitive steps are asked again), its calls recorded by `record`. */
  pipeline(record: CallRecorder): ToolPipeline;
  /** A registry tool by name. */
  findTool(name: string): ToolDefinition | undefined;
  binder?: RefBinder;
}

/** Who shows a replay as it goes: told the plan once, then each step as it ran, was skipped or stopped it. */
export interface ReplayView {
  /** Stops the replay (the panel's Stop). */
  signal?: AbortSignal;
  start(plan: { goal: string; run: number; skipped: number; replayTaskId: string }): void;
  step(entry: ReplayEntry, recorded: StepRecord | undefined): void;
}

export interface AuditApi {
  recorder: AuditRecorder;
  /** Hooks for runTool: chat passes its task, Copilot `implicit: { source: 'copilot', per: 'day' }`. */
  hooks(opts?: AuditHookOptions): ReturnType<typeof createAuditHooks>;
  setReplayDeps(deps: ReplayDeps): void;
  refresh(): void;
  /** Fires whenever the Task History is read again (a task ended, a replay, a log changed on disk, Clear). */
  onDidChange: vscode.Event<void>;
  /** The audit folder: the one task history. */
  root: string;
  /** Asks, then deletes every finished task; the count, or undefined when the person said no. */
  clearHistory(): Promise<number | undefined>;
  /**
   * Replays a recorded task after asking (undefined when the person said no). With `view`, the caller shows the
   * progress and the result (the chat panel), else a notification does.
   */
  replay(dir: string, view?: ReplayView): Promise<ReplayReport | undefined>;
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

/** A Task History item, or `{ task: { dir } }` from the chat panel's buttons. */
async function pickTask(root: string, title: string, item?: TaskItem | { task?: { dir?: string } }): Promise<string | undefined> {
  if (item instanceof TaskItem) return item.task.dir;
  if (typeof item?.task?.dir === 'string' && (await listTasks(root)).some((t) => t.dir === item.task!.dir)) return item.task.dir;
  const tasks = await listTasks(root);
  if (!tasks.length) {
    void vscode.window.showInformationMessage('Browser Agent: no recorded tasks yet.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    // The Task History's words (Done · 3 steps · Chat · 22 Nov, 10:05), local time.
    tasks.map((t) => ({ label: t.goal, description: taskDescription(t), dir: t.dir })),
    { title, matchOnDescription: true },
  );
  return pick?.dir;
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

  const openStep = async (item: StepItem) => {
    const panel = vscode.window.createWebviewPanel('browserAgent.auditStep', `Step ${item.step.step}: ${item.step.tool}`, vscode.ViewColumn.Active, {
      localResourceRoots: [vscode.Uri.file(item.taskDir)],
    });
    panel.webview.html = stepHtml(item.step, (f) => panel.webview.asWebviewUri(vscode.Uri.file(join(item.taskDir, f))).toString(), panel.webview.cspSource);
  };

  const replay = async (item?: TaskItem | { task?: { dir?: string } }) => {
    const dir = await pickTask(root, 'Replay Task', item);
    if (dir) await replayDir(dir);
  };

  const replayDir = async (dir: string, view?: ReplayView): Promise<ReplayReport | undefined> => {
    if (!replayDeps?.binder) {
      void vscode.window.showWarningMessage('Browser Agent: replay needs the tools and the snapshot layer, which are not available in this build.');
      return undefined;
    }
    const deps = replayDeps;
    const task = await loadTask(dir);
    const goal = task.start?.goal ?? task.id;
    // The numbers the replay itself counts: the question and the result agree.
    const plan = replayPlan(task, deps.findTool);
    const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;
    const ok = await vscode.window.showWarningMessage(
      `Replay "${goal}"?`,
      { modal: true, detail: `${steps(plan.run)} ${plan.run === 1 ? 'is' : 'are'} re-run in the browser without a model${plan.skipped ? ` (${steps(plan.skipped)} that only read the page or failed when recorded ${plan.skipped === 1 ? 'is' : 'are'} skipped)` : ''}. Each target must match what was recorded; sensitive steps ask again.` },
      'Replay',
    );
    if (ok !== 'Replay') return undefined;
    const log = recorder.startTask(`Replay: ${goal}`, { source: 'replay', replayOf: task.start?.taskId ?? task.id });
    view?.start({ goal, ...plan, replayTaskId: log.id });
    const byStep = new Map(task.steps.map((s) => [s.step, s]));
    const run = async (abort: AbortController, report?: (e: ReplayEntry) => void) => {
      const pipeline = deps.pipeline((call) => createAuditHooks(recorder, { ...call, task: log }));
      return replayTask(task, {
        ctx: deps.toolContext(abort.signal),
        hooks: pipeline.hooks(),
        findTool: (name) => {
          const tool = deps.findTool(name);
          return tool && pipeline.tool(tool); // {{secret:NAME}} placeholders resolve again
        },
        binder: deps.binder!,
        onProgress: (e) => {
          report?.(e);
          view?.step(e, byStep.get(e.step));
        },
        secret: (s, path) =>
          vscode.window.showInputBox({
            title: `Replay step ${s.step}`,
            prompt: `This step typed a secret into ${s.target?.role ?? 'a field'} "${s.target?.name ?? ''}" (${path}). Enter it to replay; it is not stored.`,
            password: true,
            ignoreFocusOut: true,
          }),
      });
    };
    const stopper = new AbortController();
    view?.signal?.addEventListener('abort', () => stopper.abort(), { once: true });
    const report = view
      ? await run(stopper)
      : await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Browser Agent: replaying', cancellable: true }, async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return run(abort, (e) => progress.report({ message: `step ${e.step} ${e.status}${e.note ? `: ${e.note}` : ''}` }));
        });
    await log.end(report.ok ? 'success' : report.code === 'CANCELLED' ? 'cancelled' : 'failure', report.reason);
    provider.refresh();
    if (view) return report;
    const ran = report.entries.filter((e) => e.status === 'ran').length;
    if (report.ok) void vscode.window.showInformationMessage(`Browser Agent: replay finished (${ran} of ${steps(plan.run)} run).`);
    else void vscode.window.showErrorMessage(`Browser Agent: replay stopped. ${report.reason}`);
    return report;
  };

  const exportCmd = async (item?: TaskItem | { task?: { dir?: string } }) => {
    const dir = await pickTask(root, 'Export Task', item);
    if (!dir) return;
    const target = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Export here', title: 'Export Task' });
    if (!target?.[0]) return;
    try {
      const out = await exportTask(dir, join(target[0].fsPath, `browser-agent-task-${dir.split(/[\\/]/).pop()}`));
      const open = await vscode.window.showInformationMessage(`Browser Agent: exported to ${out.dir}.`, 'Open Playwright Test');
      if (open) await vscode.window.showTextDocument(vscode.Uri.file(out.specFile));
    } catch (e) {
      void vscode.window.showErrorMessage(`Browser Agent: export failed: ${errorMessage(e)}`);
    }
  };

  const clear = async (): Promise<number | undefined> => {
    const tasks = await listTasks(root);
    if (!tasks.length) {
      void vscode.window.showInformationMessage('Browser Agent: the task history is already empty.');
      return 0;
    }
    const pick = await vscode.window.showWarningMessage(
      `Delete all ${tasks.length} recorded task${tasks.length === 1 ? '' : 's'}?`,
      { modal: true, detail: 'This deletes their logs, conversations and screenshots from the audit folder, for the chat panel and Task History alike. Running tasks are kept. This cannot be undone.' },
      { title: 'Keep Them' },
      { title: 'Delete' },
      { title: 'Cancel', isCloseAffordance: true },
    );
    if (pick?.title !== 'Delete') return undefined;
    const n = await clearHistory(root);
    provider.refresh();
    void vscode.window.showInformationMessage(`Browser Agent: deleted ${n} recorded task${n === 1 ? '' : 's'}.`);
    return n;
  };

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
    vscode.commands.registerCommand('browserAgent.audit.replay', replay),
    vscode.commands.registerCommand('browserAgent.audit.export', exportCmd),
    vscode.commands.registerCommand('browserAgent.audit.openFolder', async (item?: TaskItem) => {
      await fs.mkdir(root, { recursive: true, mode: 0o700 });
      const target = vscode.Uri.file(item instanceof TaskItem ? join(item.task.dir, 'log.jsonl') : root);
      // A remote or web host (code-server, SSH) has no file manager on the person's side.
      if (!vscode.env.remoteName) return vscode.commands.executeCommand('revealFileInOS', target);
      const pick = await vscode.window.showInformationMessage(`Browser Agent audit logs: ${target.fsPath}`, 'Copy Path', 'Open in New Window');
      if (pick === 'Copy Path') await vscode.env.clipboard.writeText(target.fsPath);
      if (pick === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(root), { forceNewWindow: true });
    }),
  );

  return {
    recorder,
    hooks: (opts) => {
      const hooks = createAuditHooks(recorder, opts);
      return { decide: hooks.decide, onStep: async (ev) => { await hooks.onStep(ev); refreshSoon(); } };
    },
    setReplayDeps: (deps) => (replayDeps = deps),
    refresh: refreshSoon,
    onDidChange: provider.onDidChangeTreeData,
    root,
    clearHistory: clear,
    replay: replayDir,
    dispose: () => recorder.dispose(),
  };
}
