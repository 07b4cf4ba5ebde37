import * as vscode from 'vscode';
import type { CallRecorder, ToolPipeline } from '../../safety/pipeline';
import type { ToolContext, ToolDefinition } from '../../contract/types';
import { createAuditHooks } from '../../audit/hooks';
import { loadThread } from '../../audit/thread';
import type { AuditRecorder } from '../../audit/recorder';
import { replayPlan, replayTask, type RefBinder, type ReplayEntry, type ReplayReport } from '../../audit/replay';
import type { StepRecord } from '../../audit/types';
import { pickTasks, type TaskRef } from './pickTask';

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

/** Who shows a replay as it goes (the chat panel): told the plan once, then each step as it ran, was skipped or stopped it. */
export interface ReplayView {
  /** Stops the replay (the panel's Stop). */
  signal?: AbortSignal;
  start(plan: { goal: string; run: number; skipped: number; replayTaskId: string }): void;
  step(entry: ReplayEntry, recorded: StepRecord | undefined): void;
}

/** "Replay Task…": asks, then re-runs a recorded task's steps without a model, as a task of its own. */
export async function replayFromHistory(place: ReplayPlace, item?: TaskRef): Promise<void> {
  const dirs = await pickTasks(place.root, 'Replay Task', item);
  if (dirs) await replayDir(place, dirs);
}

/**
 * Replays the task in `dir`, or a chat thread's (its folders oldest first: every turn's steps in order), after
 * asking (undefined when the person said no). With `view` the caller shows the
 * progress and the result (the chat panel), else a notification does. The question names the numbers the replay
 * counts (replayPlan), so the result agrees with it.
 */
export async function replayDir(place: ReplayPlace, dir: string | readonly string[], view?: ReplayView): Promise<ReplayReport | undefined> {
  const { recorder } = place;
  if (!place.deps?.binder) {
    void vscode.window.showWarningMessage('Browser Agent: replay needs the tools and the snapshot layer, which are not available in this build.');
    return undefined;
  }
  const deps = place.deps;
  const task = await loadThread(typeof dir === 'string' ? [dir] : dir);
  const goal = task.start?.goal ?? task.id;
  const plan = replayPlan(task, deps.findTool);
  const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;
  const ok = await vscode.window.showWarningMessage(
    `Replay "${goal}"${task.turns.length > 1 ? ` and its ${task.turns.length - 1} follow-up${task.turns.length > 2 ? 's' : ''}` : ''}?`,
    { modal: true, detail: `${steps(plan.run)} ${plan.run === 1 ? 'is' : 'are'} re-run in the browser without a model${plan.skipped ? ` (${steps(plan.skipped)} that only read the page or failed when recorded ${plan.skipped === 1 ? 'is' : 'are'} skipped)` : ''}. Each target must match what was recorded; sensitive steps ask again.` },
    'Replay',
  );
  if (ok !== 'Replay') return undefined;
  const log = recorder.startTask(`Replay: ${goal}`, { source: 'replay', replayOf: task.start?.taskId ?? task.id });
  view?.start({ goal, ...plan, replayTaskId: log.id });
  const byStep = new Map(task.steps.map((s) => [s.step, s]));
  const run = (abort: AbortController, report?: (e: ReplayEntry) => void) => {
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
        token.onCancellationRequested(() => stopper.abort());
        return run(stopper, (e) => progress.report({ message: `step ${e.step} ${e.status}${e.note ? `: ${e.note}` : ''}` }));
      });
  await log.end(report.ok ? 'success' : report.code === 'CANCELLED' ? 'cancelled' : 'failure', report.reason);
  place.refresh();
  if (view) return report;
  const ran = report.entries.filter((e) => e.status === 'ran').length;
  if (report.ok) void vscode.window.showInformationMessage(`Browser Agent: replay finished (${ran} of ${steps(plan.run)} run).`);
  else void vscode.window.showErrorMessage(`Browser Agent: replay stopped. ${report.reason}`);
  return report;
}
