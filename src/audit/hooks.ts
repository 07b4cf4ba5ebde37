import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Tab } from '../session/tab';
import type { Decision, RiskLevel } from '../contract/decision';
import type { Decided, RunHooks, StepEvent as RunStep } from '../runtime/runner';
import type { ToolContext, ToolResult } from '../contract/types';
import type { AuditRecorder, ImplicitScope, TaskRecorder } from './recorder';
import { recordedTarget } from './frame';
import { redactInput } from './redact';
import { captureScreenshot } from './screenshot';
import type { PageState } from './types';
import { ignore } from '../base/ignore';

const RESULT_MAX = 2000;
const RANK: Record<RiskLevel, number> = { auto: 0, notify: 1, confirm: 2, block: 3 };

export interface AuditHookOptions {
  /** The safety decider to wrap; absent → every call is `auto` on the context's own guard (as runTool does without one). */
  decide?: RunHooks['decide'];
  /** Another observer to call after recording (the chat panel). */
  onStep?: RunHooks['onStep'];
  /** Record into this task; else the recorder's active task; else the implicit one for `implicit`. */
  task?: TaskRecorder;
  implicit?: ImplicitScope;
  /** Secret values known elsewhere (the safety layer's vault: resolved placeholders), scrubbed from every line. */
  knownSecrets?: () => Iterable<string>;
}

/**
 * What we learnt about a call before its handler ran, keyed by the Decision object our decide
 * returned: runTool hands that same object to onStep, and it survives observers that copy the
 * event to scrub it (input and preview become new objects there).
 */
interface Pending {
  ctx: ToolContext;
  tab?: Tab;
  before: PageState;
  shotBefore?: Promise<string | undefined>;
  task: TaskRecorder;
}

/**
 * The tab the call acts on, without side effects: never launches a browser or opens a tab just
 * to look at it (activeTab() would open one when none is left).
 */
async function currentTab(ctx: ToolContext): Promise<Tab | undefined> {
  try {
    const s = ctx.sessions.current;
    if (!s) return undefined;
    const tabs = s.tabs();
    const info = tabs.find((t) => t.active) ?? (tabs.length === 1 ? tabs[0] : undefined);
    return info ? s.getTab(info.id) : undefined;
  } catch {
    return undefined;
  }
}

function resultText(r: ToolResult): string {
  const parts = r.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`));
  const t = parts.join('\n');
  return t.length > RESULT_MAX ? `${t.slice(0, RESULT_MAX)}… (${t.length - RESULT_MAX} more characters)` : t;
}

/**
 * Hooks for runTool that write every call to the audit log: a `decide` that wraps the safety
 * decider to note the page (and a screenshot) before the handler runs, and an `onStep` that
 * writes the step. Recording never breaks or delays a decision beyond a screenshot.
 */
export function createAuditHooks(recorder: AuditRecorder, opts: AuditHookOptions = {}): Required<Pick<RunHooks, 'decide' | 'onStep'>> {
  const pending = new WeakMap<Decision, Pending>();
  const taskFor = (): TaskRecorder => {
    if (opts.task && !opts.task.ended) return opts.task;
    if (recorder.activeTask) return recorder.activeTask;
    return recorder.implicitTask(opts.implicit ?? { source: 'api', per: 'process' });
  };

  return {
    async decide(tool, input, preview, ctx): Promise<Decided> {
      const inner = opts.decide ? await opts.decide(tool, input, preview, ctx) : undefined;
      // A fresh object per call: deciders may return shared constants.
      const decision: Decision = inner ? { ...inner.decision } : { rating: { level: 'auto' }, outcome: 'auto' };
      const task = taskFor();
      const tab = await currentTab(ctx);
      const p: Pending = { ctx, tab, task, before: { url: tab?.url ?? preview?.url, title: tab?.title ?? preview?.title } };
      if (tab && recorder.screenshots && RANK[decision.rating.level] >= RANK.notify) {
        p.shotBefore = task.ready.then(() => captureScreenshot(tab, task.dir, task.claimShot('before')));
        await p.shotBefore; // the picture must show the page before the action
      }
      pending.set(decision, p);
      return { decision, guard: inner ? inner.guard : ctx.guard };
    },

    async onStep(ev: RunStep): Promise<void> {
      const p = pending.get(ev.decision);
      pending.delete(ev.decision);
      const task = p?.task ?? taskFor();
      const { value: input, secrets } = redactInput(ev.input, ev.preview);
      task.addSecrets(secrets);
      if (opts.knownSecrets) task.addSecrets(opts.knownSecrets());
      const level = ev.decision.rating.level;
      const ran = ev.decision.outcome !== 'blocked' && ev.decision.outcome !== 'refused' && ev.decision.outcome !== 'needs-confirmation' && ev.result.code !== 'INVALID_INPUT';
      const meta = ev.result.meta ?? {};
      const recorded = task.recordStep(async (step) => {
        // The action may have switched tabs or opened a popup: describe the tab that is active now.
        const tab = p && ran ? ((await currentTab(p.ctx)) ?? p.tab) : p?.tab;
        if (tab && ran) await tab.refreshInfo();
        const after: PageState = { url: meta.urlAfter ?? tab?.url, title: meta.titleAfter ?? tab?.title };
        const screenshots: { before?: string; after?: string } = {};
        const before = await p?.shotBefore;
        if (before) {
          screenshots.before = `step-${String(step).padStart(4, '0')}-before.jpg`;
          await fs.rename(join(task.dir, before), join(task.dir, screenshots.before)).catch((e) => {
            ignore(e, 'not renamed: the record names the file as it is');
            screenshots.before = before;
          });
        }
        if (tab && ran && recorder.screenshots && RANK[level] >= RANK.notify) {
          screenshots.after = await captureScreenshot(tab, task.dir, `step-${String(step).padStart(4, '0')}-after.jpg`);
        }
        return {
          ts: new Date(ev.startedAt).toISOString(),
          tool: ev.tool,
          input,
          ...(secrets.length ? { redacted: true } : {}),
          action: ev.preview?.message,
          ...(ev.preview?.inScript ? { inScript: { call: ev.preview.inScript.call, line: ev.preview.inScript.line, fn: ev.preview.inScript.fn } } : {}),
          // The preview saw the element before the action (selector, XPath); the result adds what it learned.
          target: recordedTarget(ev.preview?.target, meta.target, p?.tab?.targetId),
          before: { url: meta.urlBefore ?? p?.before.url ?? ev.preview?.url, title: p?.before.title ?? ev.preview?.title },
          after,
          risk: level,
          decision: ev.decision.outcome,
          rule: ev.decision.rating.rule,
          reason: ev.decision.rating.reason,
          ok: !ev.result.isError,
          result: resultText(ev.result),
          errorCode: ev.result.code,
          durationMs: ev.durationMs,
          ...(screenshots.before || screenshots.after ? { screenshots } : {}),
        };
      });
      await recorded.catch((e) => ignore(e, 'a step that could not be recorded does not stop the run'));
      if (opts.onStep) await opts.onStep(ev);
    },
  };
}
