import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { JsonlAppender } from './logFile';
import { LOG_FILE } from './reader';
import { scrubDeep } from './redact';
import { AUDIT_FORMAT, type StepRecord, type TaskMeta, type TaskOutcome, type TaskSource } from './types';
import { ignore } from '../base/ignore';

export interface RecorderOptions {
  /** Folder holding one sub-folder per task (the extension's globalStorageUri/audit, or --audit-dir). */
  root: string;
  /** Before/after screenshots for steps rated notify or above (default true); a function follows a setting. */
  screenshots?: boolean | (() => boolean);
}

/** Sortable, filesystem-safe task id: time first, then a random suffix. */
function newTaskId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** One task's log: its folder, its step counter and the secret values to keep out of it. */
export class TaskRecorder {
  private stepCount = 0;
  private order: Promise<void> = Promise.resolve();
  private readonly appender: JsonlAppender;
  private readonly secretValues = new Set<string>();
  private _ended = false;
  /** Pre-step screenshots are named before the step number is known; see `claimShot`. */
  private shotCount = 0;

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly goal: string,
    readonly meta: TaskMeta & { implicit?: boolean },
    /** Resolves once the task_start line is written. */
    readonly ready: Promise<void>,
    appender: JsonlAppender,
    private readonly onEnd: (t: TaskRecorder) => void,
  ) {
    this.appender = appender;
  }

  get ended(): boolean {
    return this._ended;
  }

  get steps(): number {
    return this.stepCount;
  }

  /** Values that must never appear in this task's log (from redacted inputs, or given by the host). */
  addSecrets(values: Iterable<string>): void {
    for (const v of values) if (v) this.secretValues.add(v);
  }

  /** A fresh file name for a screenshot taken before the step number is known. */
  claimShot(kind: string): string {
    return `shot-${String(++this.shotCount).padStart(4, '0')}-${kind}.jpg`;
  }

  /**
   * Numbers the step now (finish order) and appends it once `build` resolves; lines are written
   * in step order even when steps finish concurrently.
   */
  recordStep(build: (step: number) => Promise<Omit<StepRecord, 'type' | 'step'>>): Promise<number> {
    if (this._ended) return Promise.reject(new Error(`task ${this.id} has ended`));
    const step = ++this.stepCount;
    const built = build(step);
    const next = this.order.then(async () => {
      await this.ready;
      const body = await built;
      // type and step first for a readable line, and never overridden by the body.
      const record: StepRecord = Object.assign({ type: 'step' as const, step }, body, { type: 'step' as const, step });
      await this.appender.append(scrubDeep(record, this.secretValues));
    });
    this.order = next.catch((e) => ignore(e, 'the caller of this write gets its error; the chain goes on'));
    return next.then(() => step);
  }

  /** Writes task_end, fsyncs and closes the log. Idempotent. */
  async end(outcome: TaskOutcome, summary?: string, status?: string): Promise<void> {
    if (this._ended) return;
    this._ended = true;
    this.onEnd(this);
    await this.order;
    await this.ready.catch((e) => ignore(e, 'a failed start was reported; the end record is still tried'));
    const line = scrubDeep({ type: 'task_end' as const, ts: new Date().toISOString(), outcome, summary, steps: this.stepCount, ...(status && status !== outcome ? { status } : {}) }, this.secretValues);
    await this.appender.append(line).catch((e) => ignore(e, 'the end record is best effort: the task ends either way'));
    await this.appender.close();
  }
}

export interface ImplicitScope {
  source: TaskSource;
  /** `day`: one task per calendar day (Copilot); `process`: one per recorder lifetime (MCP server). */
  per: 'day' | 'process';
  model?: string;
  provider?: string;
}

/** Owns the audit root: creates tasks, tracks the active and implicit ones, closes them all. */
export class AuditRecorder {
  private readonly open = new Set<TaskRecorder>();
  private active?: TaskRecorder;
  private readonly implicitTasks = new Map<string, TaskRecorder>();

  constructor(readonly options: RecorderOptions) {}

  get root(): string {
    return this.options.root;
  }

  get screenshots(): boolean {
    const s = this.options.screenshots;
    return typeof s === 'function' ? s() : s !== false;
  }

  /** Starts a task and makes it the active one (what hooks without an explicit task record into). */
  startTask(goal: string, meta: TaskMeta & { implicit?: boolean } = {}): TaskRecorder {
    const id = newTaskId();
    const dir = join(this.root, id);
    const appender = new JsonlAppender(join(dir, LOG_FILE));
    const ready = fs
      // Owner only: the log holds what was done on which pages (folders 0700, files 0600).
      .mkdir(dir, { recursive: true, mode: 0o700 })
      .then(() => Promise.all([fs.chmod(dir, 0o700), fs.chmod(this.root, 0o700).catch((e) => ignore(e, "the root may be another user's or read-only; the task's own folder is 0700"))]))
      .then(() => appender.append({ type: 'task_start', v: AUDIT_FORMAT, taskId: id, ts: new Date().toISOString(), goal, ...meta }));
    ready.catch((e) => ignore(e, 'awaited in end(); here only kept from counting as unhandled'));
    const task = new TaskRecorder(id, dir, goal, meta, ready, appender, (t) => {
      this.open.delete(t);
      if (this.active === t) this.active = undefined;
      for (const [k, v] of this.implicitTasks) if (v === t) this.implicitTasks.delete(k);
    });
    this.open.add(task);
    if (!meta.implicit) this.active = task;
    return task;
  }

  /** Ends the active task (the task API's counterpart of startTask). */
  async endTask(outcome: TaskOutcome, summary?: string): Promise<void> {
    await this.active?.end(outcome, summary);
  }

  get activeTask(): TaskRecorder | undefined {
    return this.active;
  }

  /**
   * The implicit task for calls that come without one (Copilot tool calls, MCP clients): one per
   * source and day, or per process. A new day closes yesterday's.
   */
  implicitTask(scope: ImplicitScope): TaskRecorder {
    const day = new Date().toISOString().slice(0, 10);
    const key = `${scope.source}:${scope.per === 'day' ? day : 'process'}`;
    const existing = this.implicitTasks.get(key);
    if (existing && !existing.ended) return existing;
    for (const [k, t] of this.implicitTasks) if (k.startsWith(`${scope.source}:`)) void t.end('ended');
    const label = scope.source === 'mcp' ? 'MCP client session' : scope.source === 'copilot' ? 'Copilot tool calls' : scope.source === 'command' ? 'Run Tool… calls' : `${scope.source} calls`;
    const goal = scope.per === 'day' ? `${label} on ${day}` : `${label} (process ${process.pid})`;
    const task = this.startTask(goal, { source: scope.source, model: scope.model, provider: scope.provider, implicit: true });
    this.implicitTasks.set(key, task);
    return task;
  }

  /** Closes every open task: explicit ones as interrupted, implicit ones as ended. */
  async dispose(): Promise<void> {
    await Promise.all([...this.open].map((t) => t.end(t.meta.implicit ? 'ended' : 'interrupted')));
  }
}
