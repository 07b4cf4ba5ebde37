import * as vscode from 'vscode';
import type { CallRecorder, ToolPipeline } from '../../safety/pipeline';
import type { ToolContext, ToolDefinition } from '../../contract/types';
import { createAuditHooks } from '../../audit/hooks';
import { loadTask } from '../../audit/reader';
import type { AuditRecorder } from '../../audit/recorder';
import { replayTask, type RefBinder } from '../../audit/replay';
import type { TaskItem } from './historyView';
import { pickTask } from './pickTask';

/** What replay needs from the rest of the extension; the snapshot layer provides `binder`. */
export interface ReplayDeps {
  toolContext(signal: AbortSignal): ToolContext;
  /** Replay's front door: the gate of live runs (sensitive steps are asked again), its calls recorded by `record`. */
  pipeline(record: CallRecorder): ToolPipeline;
  /** A registry tool by name. */
  findTool(name: string): ToolDefinition | undefined;
  binder?: RefBinder;
}

export interface ReplayPlace {
  root: string;
  recorder: AuditRecorder;
  deps?: ReplayDeps;
  /** The Task History reads its folder again (the replay is a task of its own). */
  refresh(): void;
}

/** "Replay Task…": asks, then re-runs a recorded task's steps without a model, as a task of its own. */
export async function replayFromHistory(place: ReplayPlace, item?: TaskItem): Promise<void> {
  const { root, recorder } = place;
  const dir = await pickTask(root, 'Replay Task', item);
  if (!dir) return;
  if (!place.deps?.binder) {
    void vscode.window.showWarningMessage('Browser Agent: replay needs the tools and the snapshot layer, which are not available in this build.');
    return;
  }
  const deps = place.deps;
  const task = await loadTask(dir);
  const ok = await vscode.window.showWarningMessage(
    `Replay "${task.start?.goal ?? task.id}"?`,
    { modal: true, detail: `${task.steps.length} recorded steps are re-run in the browser without a model. Each target must match what was recorded; sensitive steps ask again.` },
    'Replay',
  );
  if (ok !== 'Replay') return;
  const log = recorder.startTask(`Replay: ${task.start?.goal ?? task.id}`, { source: 'replay', replayOf: task.start?.taskId ?? task.id });
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Browser Agent: replaying', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const pipeline = deps.pipeline((call) => createAuditHooks(recorder, { ...call, task: log }));
      return replayTask(task, {
        ctx: deps.toolContext(abort.signal),
        hooks: pipeline.hooks(),
        findTool: (name) => {
          const tool = deps.findTool(name);
          return tool && pipeline.tool(tool); // {{secret:NAME}} placeholders resolve again
        },
        binder: deps.binder!,
        onProgress: (e) => progress.report({ message: `step ${e.step} ${e.status}${e.note ? `: ${e.note}` : ''}` }),
        secret: (s, path) =>
          vscode.window.showInputBox({
            title: `Replay step ${s.step}`,
            prompt: `This step typed a secret into ${s.target?.role ?? 'a field'} "${s.target?.name ?? ''}" (${path}). Enter it to replay; it is not stored.`,
            password: true,
            ignoreFocusOut: true,
          }),
      });
    },
  );
  await log.end(report.ok ? 'success' : report.code === 'CANCELLED' ? 'cancelled' : 'failure', report.reason);
  place.refresh();
  if (report.ok) void vscode.window.showInformationMessage(`Browser Agent: replay finished (${report.entries.filter((e) => e.status === 'ran').length} steps run).`);
  else void vscode.window.showErrorMessage(`Browser Agent: replay stopped. ${report.reason}`);
}
