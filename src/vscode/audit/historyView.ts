import * as vscode from 'vscode';
import { listTasks, loadTask, summarizeTask, type TaskSummary } from '../../audit/reader';
import { localTime, outcomeIcon, stepDescription, stepIcon, stepLabel, taskDescription, taskLabel, taskRowDescription } from '../../audit/present';
import type { StepRecord } from '../../audit/types';

export class TaskItem extends vscode.TreeItem {
  constructor(readonly task: TaskSummary) {
    super(taskLabel(task), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = task.id;
    this.description = taskRowDescription(task);
    this.iconPath = new vscode.ThemeIcon(outcomeIcon(task.outcome, task.truncated, task.status));
    this.contextValue = 'browserAgent.auditTask';
    this.tooltip = new vscode.MarkdownString(
      `**${task.goal}**\n\n${taskDescription(task)}${task.summary ? `\n\n${task.summary}` : ''}\n\nStarted ${localTime(task.startedAt)}${task.endedAt ? `, ended ${localTime(task.endedAt)}` : ''}\n\n\`${task.dir}\``,
    );
  }
}

export class StepItem extends vscode.TreeItem {
  constructor(
    readonly taskDir: string,
    readonly step: StepRecord,
  ) {
    super(stepLabel(step), vscode.TreeItemCollapsibleState.None);
    this.id = `${taskDir}#${step.step}`;
    this.description = stepDescription(step);
    this.iconPath = new vscode.ThemeIcon(stepIcon(step));
    this.contextValue = 'browserAgent.auditStep';
    this.tooltip = [step.ok ? undefined : step.result, `${step.before.url ?? ''}${step.after.url && step.after.url !== step.before.url ? ` → ${step.after.url}` : ''}`].filter(Boolean).join('\n\n');
    this.command = { command: 'browserAgent.audit.openStep', title: 'Show Step', arguments: [this] };
  }
}

/** Tasks (newest first, with outcome and time) → their steps. Re-read from disk on refresh. */
export class TaskHistoryProvider implements vscode.TreeDataProvider<TaskItem | StepItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Callers waiting for the tree to have read the tasks again (see `read`). */
  private readers: (() => void)[] = [];

  constructor(private readonly root: () => string) {}

  refresh(): void {
    this.changed.fire();
  }

  /**
   * Refreshes and resolves once the view has read the task list again (or after `capMs`, when it does not ask: a
   * hidden view reads when shown). A run's end waits for this before the panel shows its result, so the tree never
   * shows a finished task as Running while the panel already says how it ended.
   */
  read(capMs = 2_000): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, capMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.readers.push(done);
      this.refresh();
    });
  }

  getTreeItem(e: TaskItem | StepItem): vscode.TreeItem {
    return e;
  }

  async getChildren(e?: TaskItem | StepItem): Promise<(TaskItem | StepItem)[]> {
    if (!e) {
      const readers = this.readers.splice(0);
      try {
        return (await listTasks(this.root())).map((t) => new TaskItem(t));
      } finally {
        // After VS Code has taken the answer (its reply goes out in the turns right after this one).
        if (readers.length) setTimeout(() => readers.forEach((r) => r()), 20);
      }
    }
    if (e instanceof TaskItem) {
      const t = await loadTask(e.task.dir);
      return t.steps.map((s) => new StepItem(t.dir, s));
    }
    return [];
  }

  /** Needed by TreeView.reveal (the chat panel opens a task's history from its link). */
  async getParent(e: TaskItem | StepItem): Promise<TaskItem | undefined> {
    return e instanceof StepItem ? new TaskItem(await summarizeTask(e.taskDir)) : undefined;
  }

  /** The tree item of a task by id, for reveal. */
  async taskItem(taskId: string): Promise<TaskItem | undefined> {
    const t = (await listTasks(this.root())).find((x) => x.id === taskId);
    return t && new TaskItem(t);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
