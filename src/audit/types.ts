import type { TargetFingerprint } from '../contract/types';
import type { DecisionOutcome, RiskLevel } from '../contract/decision';

/** Bumped when a line's shape changes incompatibly; readers accept older versions. */
export const AUDIT_FORMAT = 1;

/** Who started a task: the chat agent, Copilot tool calls, an MCP client, or a replay. */
export type TaskSource = 'chat' | 'copilot' | 'mcp' | 'replay' | 'api' | 'command';

/** `ended`: an implicit task (Copilot/MCP calls without a goal) was closed; there is no goal to judge. */
export type TaskOutcome = 'success' | 'failure' | 'cancelled' | 'interrupted' | 'ended';

export interface TaskMeta {
  model?: string;
  provider?: string;
  source?: TaskSource;
  /** For replays: the task being replayed. */
  replayOf?: string;
  /** For a chat follow-up: the thread it continues (the id of the thread's first task). */
  thread?: string;
}

export interface TaskStartEvent extends TaskMeta {
  type: 'task_start';
  v: number;
  taskId: string;
  ts: string;
  goal: string;
  /** True for the implicit per-session/per-day/per-process tasks of Copilot and MCP calls. */
  implicit?: boolean;
}

export interface PageState {
  url?: string;
  title?: string;
}

/** One tool call as recorded: enough for a person to read and for replay/export to re-run it. */
export interface StepRecord {
  type: 'step';
  /** 1, 2, 3, … within the task, in the order calls finished. */
  step: number;
  ts: string;
  tool: string;
  /** The input with secrets and password values replaced by REDACTED. */
  input: unknown;
  /** True when something in input was redacted (replay then needs the value from the person). */
  redacted?: boolean;
  /** The preview sentence (`Clicking button "Submit"…`). */
  action?: string;
  /** A call a browser_run_script script made: which call and on which line of the script (logged as its own step, before the script's). */
  inScript?: { call: number; line?: number; fn: string };
  target?: TargetFingerprint;
  before: PageState;
  after: PageState;
  risk: RiskLevel;
  decision: DecisionOutcome;
  rule?: string;
  reason?: string;
  ok: boolean;
  /** Result text, trimmed (or the error text). */
  result?: string;
  errorCode?: string;
  durationMs: number;
  /** File names inside the task folder. */
  screenshots?: { before?: string; after?: string };
}

export interface TaskEndEvent {
  type: 'task_end';
  ts: string;
  outcome: TaskOutcome;
  summary?: string;
  steps: number;
  /** The chat agent's finer status (`stopped`, `max-steps`, `stuck`…) when it says more than outcome. */
  status?: string;
}

export type AuditEvent = TaskStartEvent | StepRecord | TaskEndEvent;

/** Replaces secret values in the log; the same text the safety layer's SecretVault uses. */
export const REDACTED = '[redacted]';
/** `{{secret:NAME}}`: a secret by name, resolved only for the handler; safe to log and to replay. */
export const SECRET_PLACEHOLDER = /\{\{\s*secret:([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
