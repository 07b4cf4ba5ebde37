import type { ContentPart } from '../contract/types';
import type { AgentRun } from './agentRun';
import { FINISH, FinishSchema, THINK, ThinkSchema } from './agentTools';
import type { AgentOutcome } from './events';
import { targetOf } from './stepTarget';
import { ACT, EXTRACT, OBSERVE } from './act/agentSpecs';
import type { ToolCall, UserPart } from './types';

/** One turn's answers to the model's calls, and what stops the rest of them. */
export interface Turn {
  results: UserPart[];
  /** The model called finish: later calls of the turn are not run. */
  finished?: AgentOutcome;
  /** Why later calls of the turn are not run (an earlier one failed). */
  skipRest: string;
}

/**
 * Answers one call of the model's turn: finish, think, act / observe / extract, or a registry tool (with the
 * loop guard, a fresh snapshot after a second failure on one target, and a vision model's look at the effect).
 * Returns an outcome when the run ends here (the model is stuck repeating itself).
 */
export async function answerCall(run: AgentRun, turn: Turn, call: ToolCall): Promise<AgentOutcome | undefined> {
  const { o, byName, context } = run;
  const answer = (content: ContentPart[], isError = false) => turn.results.push({ type: 'tool_result', callId: call.id, name: call.name, content, isError, step: run.step });
  if (turn.finished || turn.skipRest) {
    answer([{ type: 'text', text: `Not run: ${turn.finished ? 'the task was finished' : turn.skipRest}.` }], true);
    return;
  }
  if (call.name === FINISH) {
    const f = FinishSchema.safeParse(call.input ?? {});
    if (!f.success) {
      answer([{ type: 'text', text: `INVALID_INPUT: finish needs {success: boolean, summary: string, data?}: ${f.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` }], true);
      return;
    }
    const { ledger } = run;
    // A success claim over actions that failed and were not redone: the model hears it first and may fix them.
    const failed = f.data.success ? ledger.unresolved() : [];
    if (failed.length && ledger.shouldWarn(failed)) {
      run.agentStep(FINISH, f.data, `Not finished yet: ${ledger.headline(failed)}`, false);
      const page = await run.pageNow();
      answer([{ type: 'text', text: ledger.warning(failed, page.line) }, ...page.content], true);
      turn.skipRest = 'the task was not finished yet';
      return;
    }
    // A finish that reports failure must not look like a success (no green check).
    run.agentStep(FINISH, f.data, f.data.summary, f.data.success && !failed.length);
    turn.finished = { status: !f.data.success ? 'failure' : failed.length ? 'unverified' : 'success', summary: f.data.summary, data: f.data.data, steps: run.step, tokens: 0, ...(failed.length ? { reason: ledger.reason(failed) } : {}) };
    answer([{ type: 'text', text: 'Finished.' }]);
    return;
  }
  if (run.step >= o.maxSteps) {
    answer([{ type: 'text', text: 'Not run: the step limit was reached.' }], true);
    return;
  }
  run.step++;
  if (call.name === THINK) {
    const t = ThinkSchema.safeParse(call.input ?? {});
    run.agentStep(THINK, call.input, t.success ? t.data.thought : 'empty thought');
    answer([{ type: 'text', text: 'Noted. Now act.' }]);
    return;
  }
  if (call.name === ACT || call.name === OBSERVE || call.name === EXTRACT) {
    const r = await run.pageAction(call);
    answer([{ type: 'text', text: r.text }], r.isError);
    if (r.isError) turn.skipRest = `an earlier call in this turn (${call.name}) failed`;
    return;
  }
  const tool = byName.get(call.name);
  if (!tool) {
    answer([{ type: 'text', text: `INVALID_INPUT: there is no tool "${call.name}".\nHint: use one of ${[...byName.keys(), FINISH, THINK].join(', ')}.` }], true);
    return;
  }

  const unparsed = (call.input as { __unparsedArguments?: unknown } | undefined)?.__unparsedArguments;
  if (typeof unparsed === 'string') {
    answer([{ type: 'text', text: `INVALID_INPUT: the arguments for ${call.name} are not valid JSON: ${unparsed.slice(0, 300)}\nHint: call it again with a JSON object matching its schema.` }], true);
    return;
  }

  // Loop guard: the same call again and again means the model is not getting anywhere.
  const verdict = run.repeats.check(call);
  const { repeats } = run.repeats;
  if (verdict === 'stop') {
    answer([{ type: 'text', text: 'Stopped: repeated identical calls.' }], true);
    context.push({ role: 'user', content: turn.results });
    return run.done('stuck', `Stopped: the model repeated ${call.name} with the same arguments ${repeats} times in a row.`);
  }
  if (verdict === 'refuse') {
    answer([{ type: 'text', text: `LOOP_DETECTED: ${call.name} was called with the same arguments ${repeats - 1} times in a row and was not run again.\nHint: the page is not changing this way; take a fresh snapshot, try another element or approach, or finish.` }], true);
    return;
  }

  const r = await run.execute(tool, call.input, run.step);
  let content = run.visible(r.content);
  const target = targetOf(call.input);
  if (r.isError && r.code !== 'BLOCKED_BY_POLICY' && target) {
    const n = run.failedTargets.fail(call.name, target);
    const snapTool = byName.get(run.snapshotName);
    // Second failure on one target: the model's picture of the page is probably stale.
    if (n >= 2 && snapTool && call.name !== run.snapshotName) {
      const fresh = await run.execute(snapTool, {}, run.step);
      content = [...content, { type: 'text', text: `\nThis failed ${n} times on the same target, so here is a fresh snapshot:` }, ...run.visible(fresh.content)];
      run.failedTargets.forget(call.name, target);
    }
  } else if (!r.isError && run.vision && !tool.readOnly) {
    // Verify: a vision model checks the effect of an action on a fresh screenshot.
    const shot = byName.get(run.screenshotName);
    if (shot) {
      const s = await run.execute(shot, {}, run.step);
      if (!s.isError) content = [...content, ...s.content.filter((c) => c.type === 'image')];
    }
  }
  answer(content, !!r.isError);
  if (r.isError && r.code !== 'BLOCKED_BY_POLICY') turn.skipRest = `an earlier call in this turn (${call.name}) failed`;
  return;
}
