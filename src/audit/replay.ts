import { errorMessage } from '../base/errors';
import type { Tab } from '../session/tab';
import { runTool, type RunHooks } from '../runtime/runner';
import type { ToolContext, ToolDefinition } from '../contract/types';
import type { LoadedTask } from './reader';
import { fingerprintMismatch, relocate, type LocatedElement, type RelocateFailure } from './relocate';
import { REDACTED, type StepRecord } from './types';

/**
 * Turns a re-located element into a ref the tools accept. This is the one link to the snapshot
 * layer: its implementation registers the element (backendNodeId in its frame) under a fresh ref
 * and reports the role/name the snapshot computes, which replay checks once more.
 */
export interface RefBinder {
  bind(tab: Tab, element: LocatedElement): Promise<{ ref: string; role?: string; name?: string }>;
}

export interface ReplayOptions {
  ctx: ToolContext;
  /** The same safety decider as live runs (sensitive steps are confirmed again) and the audit hooks. */
  hooks: RunHooks;
  findTool(name: string): ToolDefinition | undefined;
  binder: RefBinder;
  /** Asked for each redacted value (a typed password); undefined stops the replay at that step. */
  secret?(step: StepRecord, path: string): PromiseLike<string | undefined>;
  /** How long to wait for a target to appear (the page may still be loading). Default 5000 ms. */
  locateTimeoutMs?: number;
  /** Also re-run read-only steps (snapshots, screenshots, extraction). Default false. */
  includeReadOnly?: boolean;
  onProgress?(entry: ReplayEntry): void;
}

export interface ReplayEntry {
  step: number;
  tool: string;
  status: 'ran' | 'skipped' | 'stopped';
  note?: string;
}

export interface ReplayReport {
  ok: boolean;
  entries: ReplayEntry[];
  /** The recorded step replay stopped at, and why, in words for a person. */
  stoppedAt?: number;
  reason?: string;
  code?: string;
}

/** Input keys that name a second element (drag targets); replay re-locates only `ref`. */
const OTHER_REF = /^(?!ref$).*ref$/i;

function hasOtherRefs(input: Record<string, unknown>): boolean {
  return Object.entries(input).some(([k, v]) => OTHER_REF.test(k) && v !== undefined && v !== null);
}

/** Paths of redacted string values inside an input. */
function redactedPaths(v: unknown, path = ''): string[] {
  if (v === REDACTED) return [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => redactedPaths(x, `${path}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => redactedPaths(x, path ? `${path}.${k}` : k));
  return [];
}

/** The first string that has a secret scrubbed out of its middle (a URL with a token in it). */
function partlyRedacted(v: unknown, path = ''): string | undefined {
  if (typeof v === 'string') return v !== REDACTED && v.includes(REDACTED) ? path : undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = partlyRedacted(v[i], `${path}[${i}]`);
      if (p) return p;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = partlyRedacted(x, path ? `${path}.${k}` : k);
      if (p) return p;
    }
  }
  return undefined;
}

function valueAt(obj: any, path: string): unknown {
  return path.replace(/\[(\d+)\]/g, '.$1').split('.').reduce((o, k) => o?.[k], obj);
}

function setPath(obj: any, path: string, value: unknown): void {
  const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys[keys.length - 1]] = value;
}

function describeVia(el: LocatedElement): string {
  return `found by ${el.via === 'selector' ? 'CSS selector' : el.via === 'xpath' ? 'XPath' : 'role and name'}`;
}

/** Why a recorded step is not re-run (it failed or was refused the first time, or only read). */
function skipReason(s: StepRecord, tool: ToolDefinition, includeReadOnly: boolean): string | undefined {
  if (s.decision === 'refused' || s.decision === 'blocked' || s.decision === 'needs-confirmation') return `was ${s.decision} when recorded`;
  if (!s.ok) return `failed when recorded (${s.errorCode ?? 'error'})`;
  if (tool.readOnly && !includeReadOnly) return 'read-only';
  // A script's calls were recorded as steps of their own (before it): they are what replays, each re-verified.
  if (tool.composite) return 'a script: its calls are replayed as their own steps';
  return undefined;
}

/**
 * What a replay of `task` will do, counted the way the replay counts: steps it re-runs, and steps it skips (read-only,
 * or failed or refused when recorded). The confirmation and the result say the same numbers.
 */
export function replayPlan(task: LoadedTask, findTool: (name: string) => ToolDefinition | undefined, includeReadOnly = false): { run: number; skipped: number } {
  let run = 0;
  let skipped = 0;
  for (const s of task.steps) {
    const tool = findTool(s.tool);
    if (tool && skipReason(s, tool, includeReadOnly)) skipped++;
    else run++;
  }
  return { run, skipped };
}

async function locateWithin(tab: () => Promise<Tab>, s: StepRecord, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last: RelocateFailure | undefined;
  for (;;) {
    const t = await tab();
    try {
      // Found by selector/XPath only; the role/name check follows once the snapshot's view is known.
      const r = await relocate(t, s.target!, { verify: false });
      if (r.ok) return { tab: t, r };
      last = r;
      // A changed element is a fact, not a timing issue; only a missing one is worth waiting for.
      if (r.code !== 'TARGET_NOT_FOUND') return { tab: t, r };
    } catch (e) {
      last = { ok: false, code: 'TARGET_NOT_FOUND', reason: errorMessage(e) };
    }
    if (Date.now() >= deadline) return { tab: t, r: last };
    await new Promise((res) => setTimeout(res, 150));
  }
}

/**
 * Re-runs a recorded task's actions in order through runTool, without a model. Each target is
 * found again by its fingerprint and must have the recorded role and name; otherwise replay
 * stops at that step and says why. It never acts on a different element.
 */
export async function replayTask(task: LoadedTask, opts: ReplayOptions): Promise<ReplayReport> {
  const entries: ReplayEntry[] = [];
  const push = (e: ReplayEntry) => {
    entries.push(e);
    opts.onProgress?.(e);
  };
  const stop = (s: StepRecord, code: string, reason: string): ReplayReport => {
    push({ step: s.step, tool: s.tool, status: 'stopped', note: reason });
    return { ok: false, entries, stoppedAt: s.step, code, reason: `Step ${s.step} (${s.tool}${s.action ? `: ${s.action}` : ''}): ${reason}` };
  };
  /**
   * A step replay could not run is written to the replay's own log as a failed step, so the history
   * tree shows which step failed and why (not only a notification that goes away).
   */
  const stopHere = async (s: StepRecord, code: string, reason: string): Promise<ReplayReport> => {
    const report = stop(s, code, reason);
    await opts.hooks.onStep?.({
      tool: s.tool,
      input: s.input,
      preview: { message: s.action ?? s.tool, target: s.target },
      decision: { rating: { level: 'auto' }, outcome: 'auto' },
      result: { isError: true, code, content: [{ type: 'text', text: `${code}: ${reason}\nReplay stopped at this step; the steps after it did not run.` }], meta: { target: s.target } },
      startedAt: Date.now(),
      durationMs: 0,
    });
    return report;
  };
  if (task.truncated) opts.onProgress?.({ step: 0, tool: '', status: 'skipped', note: 'the log was cut off; replaying the steps that were written' });

  // Plan first: every tool known and every redacted value given before anything runs, so a
  // replay never stops half-way for something that could have been asked up front.
  const plan: { s: StepRecord; tool: ToolDefinition; input?: Record<string, unknown>; skip?: string }[] = [];
  for (const s of [...task.steps].sort((a, b) => a.step - b.step)) {
    const tool = opts.findTool(s.tool);
    if (!tool) return stopHere(s, 'INVALID_INPUT', `the tool ${s.tool} does not exist in this version`);
    const skip = skipReason(s, tool, !!opts.includeReadOnly);
    if (skip) {
      plan.push({ s, tool, skip });
      continue;
    }
    const input = structuredClone((s.input ?? {}) as Record<string, unknown>);
    const partial = partlyRedacted(input);
    if (partial) return stopHere(s, 'INVALID_INPUT', `"${partial}" had a secret scrubbed out of it (${JSON.stringify(valueAt(input, partial))}); it cannot be replayed as recorded; nothing was replayed`);
    for (const path of redactedPaths(input)) {
      const value = await opts.secret?.(s, path);
      if (value === undefined) return stopHere(s, 'INVALID_INPUT', `the recorded value of "${path}" is redacted and no value was given; nothing was replayed`);
      setPath(input, path, value);
    }
    plan.push({ s, tool, input });
  }

  for (const { s, tool, input, skip } of plan) {
    if (opts.ctx.signal?.aborted) return stopHere(s, 'CANCELLED', 'replay was cancelled');
    if (skip || !input) {
      push({ step: s.step, tool: s.tool, status: 'skipped', note: skip });
      continue;
    }
    if (hasOtherRefs(input)) return stopHere(s, 'NOT_VERIFIABLE', 'it targets more than one element; replay can only re-locate a single target');
    if (typeof input.ref !== 'string' && typeof input.x === 'number' && typeof input.y === 'number' && !tool.readOnly) {
      return stopHere(s, 'NOT_VERIFIABLE', 'it acted at screen coordinates, which cannot be checked to be the same element');
    }
    if (typeof input.ref === 'string') {
      if (!s.target) return stopHere(s, 'NOT_VERIFIABLE', 'no target fingerprint was recorded for its element');
      const { tab, r } = await locateWithin(() => opts.ctx.tab(), s, opts.locateTimeoutMs ?? 5000);
      if (!r || !r.ok) return stopHere(s, r?.code ?? 'TARGET_NOT_FOUND', r?.reason ?? 'target not found');
      let bound: { ref: string; role?: string; name?: string };
      try {
        bound = await opts.binder.bind(tab, r.element);
      } catch (e) {
        return stopHere(s, 'TARGET_NOT_FOUND', `the element was found but could not be given a ref: ${errorMessage(e)}`);
      }
      // The recorded role/name came from the snapshot: compare with the snapshot's view when the
      // binder gives it (same source, same naming rules), else with the accessibility tree's.
      const now = bound.role !== undefined && bound.name !== undefined ? { role: bound.role, name: bound.name } : { role: r.element.role, name: r.element.name };
      const mismatch = fingerprintMismatch(s.target, now);
      if (mismatch) return stopHere(s, 'TARGET_CHANGED', `the element ${describeVia(r.element)} is not the recorded one: ${mismatch}`);
      input.ref = bound.ref;
    }
    const result = await runTool(tool, input, opts.ctx, opts.hooks);
    if (result.isError) {
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').trim();
      return stop(s, result.code ?? 'CDP_ERROR', `the action failed: ${text}`);
    }
    push({ step: s.step, tool: s.tool, status: 'ran' });
  }
  return { ok: true, entries };
}
