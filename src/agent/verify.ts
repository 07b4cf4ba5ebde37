import type { Decision } from '../contract/decision';
import type { TargetFingerprint, ToolDefinition, ToolResult } from '../contract/types';
import { elementLabel } from './stepTarget';

/**
 * What the run's actions did, so a finish is judged by what happened and not only by what the
 * model says: an action that failed (a stale ref, a missing element, a declined confirmation) and
 * was not redone means a success claim is not verified.
 */

/** Actions that change nothing the task is about: a failure here is not a failed step of the task. */
const PASSIVE = new Set(['browser_hover', 'browser_scroll', 'browser_resize']);

export interface ActionRecord {
  tool: string;
  /** `click button "Save"`: the action in words, never a bare ref when the element's name is known. */
  what: string;
  ok: boolean;
  code?: string;
  /** For the model: the error's first line, as the tool gave it. */
  error?: string;
  /** For a person: why it failed, in a few words. */
  why?: string;
  /** The person declined it, or the policy blocked it: only doing that very action later makes up for it. */
  refused?: boolean;
}

/** Words for a tool: `browser_fill_form` → `fill form`. */
function verb(tool: string): string {
  return tool.replace(/^browser_/, '').replace(/_/g, ' ');
}

/**
 * `textbox "Name"`: from a STALE_REF message (`Ref 5 (textbox "Name") is no longer…`), else the element the
 * action reached or the confirmation showed, else what the input says.
 */
function elementOf(input: unknown, result: ToolResult, errorLine: string, previewed?: TargetFingerprint): string | undefined {
  const stale = /^Ref \S+ \(([^)]*)\)/.exec(errorLine.replace(/^[A-Z_]+: /, ''));
  if (stale) return stale[1];
  const named = elementLabel(result.meta?.target ?? previewed);
  if (named) return named;
  const i = (input ?? {}) as Record<string, unknown>;
  if (typeof i.ref === 'string') return `the element ref ${i.ref}`;
  for (const k of ['selector', 'element', 'url', 'key']) if (typeof i[k] === 'string') return String(i[k]).slice(0, 80);
  return undefined;
}

const WHY: Record<string, string> = {
  STALE_REF: 'it was from an earlier page',
  TARGET_NOT_FOUND: 'it was not found',
  NOT_INTERACTABLE: 'it could not be used',
  COVERED: 'something covered it',
  TIMEOUT: 'it timed out',
  NAVIGATION_FAILED: 'the page did not load',
  INVALID_INPUT: 'the call was not valid',
  DIALOG_OPEN: 'a dialog was open',
};

export class ActionLedger {
  private readonly actions: ActionRecord[] = [];
  private warned = 0;
  private warnedAbout = new Set<ActionRecord>();

  /** Records a registry tool's result; read-only and passive tools are not the task's actions. */
  record(tool: ToolDefinition, input: unknown, result: ToolResult, decision?: Decision, previewed?: TargetFingerprint): void {
    if (tool.readOnly || PASSIVE.has(tool.name)) return;
    // A tool the site's skill does not allow was never a step of the task: the user's own procedure ruled it out.
    if (decision?.rating.rule === 'skill-allowed-tools') return;
    const text = result.content.find((c) => c.type === 'text')?.text ?? '';
    const errorLine = result.isError ? (text.split('\n').find((l) => l.trim()) ?? '') : '';
    const element = elementOf(input, result, errorLine, previewed);
    const refused = result.isError && result.code === 'BLOCKED_BY_POLICY';
    const what = `${verb(tool.name)}${element ? ` ${element}` : ''}`;
    const why = !result.isError
      ? undefined
      : refused
        ? decision?.outcome === 'refused' ? 'you declined it' : 'the safety policy blocked it'
        : (WHY[result.code ?? ''] ?? (errorLine.replace(/^[A-Z_]+: /, '').split(/(?<=\.)\s/)[0].slice(0, 120) || 'it failed'));
    this.actions.push({ tool: tool.name, what, ok: !result.isError, code: result.code, error: result.isError ? errorLine.slice(0, 300) : undefined, why, refused });
  }

  /** Failed actions not made up for: no later success of the same tool (for a refusal: of the same action). */
  unresolved(): ActionRecord[] {
    return this.actions.filter((a, i) => !a.ok && !this.actions.slice(i + 1).some((b) => b.ok && b.tool === a.tool && (!a.refused || b.what === a.what)));
  }

  /** Whether to send a success claim back once more: only for failures the model has not been told about, at most twice a run. */
  shouldWarn(failed: ActionRecord[]): boolean {
    if (this.warned >= 2 || failed.every((a) => this.warnedAbout.has(a))) return false;
    this.warned++;
    failed.forEach((a) => this.warnedAbout.add(a));
    return true;
  }

  /** `your last 3 actions failed` when nothing succeeded after them, else `3 of your actions failed`. */
  private lead(failed: ActionRecord[]): string {
    const n = failed.length;
    const lastOk = this.actions.map((a) => a.ok).lastIndexOf(true);
    const trailing = failed.every((a) => this.actions.indexOf(a) > lastOk);
    if (!trailing) return `${n} of your actions failed`;
    return n === 1 ? 'your last action failed' : `your last ${n} actions failed`;
  }

  /** For the model, answering its finish: what failed, and what to do now. */
  warning(failed: ActionRecord[], page: string): string {
    return [
      `NOT_VERIFIED: not finished yet: ${this.lead(failed)} and ${failed.length === 1 ? 'was' : 'were'} not redone:`,
      ...failed.map((a) => `- ${a.what}: ${a.error || a.why}`),
      `The page still shows: ${page}`,
      'Hint: if the task is not done, redo these on the page as it is now (take refs from the snapshot below). If it cannot be done, call finish with success: false and say what was not done. Call finish with success: true only if the page shows the task done.',
    ].join('\n');
  }

  /** `3 actions failed and were not redone`: the reason's first line. */
  headline(failed: ActionRecord[]): string {
    const n = failed.length;
    return `${n === 1 ? '1 action' : `${n} actions`} failed and ${n === 1 ? 'was' : 'were'} not redone`;
  }

  /** For a person: why the result is not verified, one line per action. */
  reason(failed: ActionRecord[]): string {
    return [`${this.headline(failed)}:`, ...failed.map((a) => `• ${a.what}: ${a.why}`)].join('\n');
  }
}
