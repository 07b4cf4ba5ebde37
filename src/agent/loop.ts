import { z } from 'zod';
import { errorMessage, isAgentError } from '../base/errors';
import { currentPageUrl, narrowingFor } from '../skills/gate';
import { runTool, type RunHooks, type StepEvent } from '../runtime/runner';
import type { ContentPart, ToolContext, ToolDefinition, ToolResult } from '../contract/types';
import { FINISH, FinishSchema, THINK, ThinkSchema, agentToolSpecs, needsVision, specOf } from './agentTools';
import { AgentContext, DEFAULT_LIMITS, type ContextLimits } from './context';
import type { AgentEvent, AgentOutcome, AgentStatus } from './events';
import { systemPrompt } from './prompt';
import { elementLabel, stepTarget, targetOf } from './stepTarget';
import { SkillGuide, type Guidance } from './skillGuide';
import { ACT, ActSchema, EXTRACT, ExtractSchema, OBSERVE, ObserveSchema, pageActionSpecs } from './act/agentSpecs';
import type { ActionCache } from './act/cache';
import { PageActions } from './act/pageActions';
import { carryOver, followUpText } from './thread';
import type { AgentMessage, AgentMode, ChatProvider, ToolCall, UserPart } from './types';
import { ActionLedger } from './verify';

export interface AgentOptions {
  task: string;
  provider: ChatProvider;
  /** The registry's tools (the loop filters them for the mode). */
  tools: ToolDefinition[];
  ctx: Omit<ToolContext, 'signal'>;
  /** Safety decision and step observers, passed through to runTool. */
  hooks?: RunHooks;
  mode: AgentMode;
  maxSteps: number;
  /** Identical consecutive calls allowed before the next one is refused. */
  maxIdenticalCalls?: number;
  signal: AbortSignal;
  onEvent?(e: AgentEvent): void;
  limits?: ContextLimits;
  now?: Date;
  snapshotTool?: string;
  screenshotTool?: string;
  /** Where act remembers resolved actions (per workspace); absent: act always asks the model. */
  actionCache?: ActionCache;
  /** The thread so far (the outcome's `conversation` of the previous run): `task` is then a follow-up to it. */
  earlier?: readonly AgentMessage[];
}

const OUTPUT_FOR_PANEL = 20_000;

function textOf(content: ContentPart[]): string {
  return content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

class Cancelled extends Error {}

/** Resolves with the promise, or rejects at once when the signal aborts (a tool that ignores its signal cannot hold the run). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The agent: observe → decide → act → verify over the tool registry until the model calls
 * `finish`, the step limit is reached, the loop gets stuck, or the user stops it. Never throws.
 */
export async function runAgent(o: AgentOptions): Promise<AgentOutcome> {
  const emit = (e: AgentEvent) => {
    try {
      o.onEvent?.(e);
    } catch {
      /* an observer never breaks the run */
    }
  };
  const maxIdentical = o.maxIdenticalCalls ?? 3;
  const snapshotName = o.snapshotTool ?? 'browser_snapshot';
  const screenshotName = o.screenshotTool ?? 'browser_screenshot';
  const vision = o.mode === 'hybrid' && o.provider.capabilities.vision;
  const tools = o.tools.filter((t) => vision || !needsVision(t));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const specs = [...tools.map(specOf), ...pageActionSpecs, ...agentToolSpecs];
  const ctx: ToolContext = { ...o.ctx, signal: o.signal };
  const guide = o.ctx.skills ? new SkillGuide(o.ctx.skills, o.task) : undefined;
  const isSnapshot = (n: string) => /snapshot/i.test(n);
  const context = new AgentContext(isSnapshot, o.limits ?? DEFAULT_LIMITS);
  const earlier = o.earlier?.length ? carryOver(o.earlier, undefined, isSnapshot) : [];
  for (const m of earlier) context.push(m);
  /** A run the model never answered leaves the thread as it was (the person sends the message again). */
  let replied = false;
  const ledger = new ActionLedger();

  let step = 0;
  let callSeq = 0;
  let lastKey = '';
  let repeats = 0;
  let refusedRepeats = 0;
  let textOnlyTurns = 0;
  const failedTargets = new Map<string, number>();
  let usage = { inputTokens: 0, outputTokens: 0 };

  let startUrl: string | undefined;
  let startTitle: string | undefined;
  try {
    const tab = o.ctx.sessions.current ? await raceAbort(o.ctx.tab(), o.signal) : undefined;
    startUrl = tab?.url;
    startTitle = tab?.title;
  } catch {
    /* no browser yet: the model navigates first */
  }
  const system = systemPrompt({ mode: vision ? 'hybrid' : 'dom', toolNames: [...byName.keys()], startUrl, startTitle, now: o.now ?? new Date(), maxSteps: o.maxSteps });

  const done = (status: AgentStatus, summary: string, data?: unknown, reason?: string): AgentOutcome => {
    const conversation = replied ? context.messages : [...(o.earlier ?? [])];
    const outcome: AgentOutcome = { status, summary, data, steps: step, tokens: context.tokens(system), ...(reason ? { reason } : {}), conversation };
    emit({ type: 'done', outcome });
    return outcome;
  };
  const tokens = () => emit({ type: 'tokens', estimate: context.tokens(system), ...(usage.inputTokens ? usage : {}) });

  /** Runs one registry tool through the shared runner, emitting the panel's step events. */
  const execute = async (tool: ToolDefinition, input: unknown, stepNo: number): Promise<ToolResult> => {
    const id = `s${++callSeq}`;
    const target = await stepTarget(input, ctx).catch(() => targetOf(input));
    emit({ type: 'step-start', id, step: stepNo, tool: tool.name, input, target });
    let event: StepEvent | undefined;
    // Time spent deciding (a person reading a confirmation) is not the action's duration.
    let decidingMs = 0;
    const decide = o.hooks?.decide;
    const hooks: RunHooks = {
      // A decision that takes a moment is a person looking at a confirmation: say so in the panel.
      decide:
        decide &&
        (async (t, i, preview, c) => {
          let shown = false;
          const waiting = setTimeout(() => {
            shown = true;
            emit({ type: 'status', text: `Waiting for your confirmation${preview ? `: ${preview.message}` : ''}` });
          }, 250);
          const t0 = Date.now();
          try {
            return await decide(t, i, preview, c);
          } finally {
            decidingMs += Date.now() - t0;
            clearTimeout(waiting);
            if (shown) emit({ type: 'status', text: '' });
          }
        }),
      onStep: async (e) => {
        event = e;
        await o.hooks?.onStep?.(e);
      },
      // A script's calls (browser_run_script) run through the run's own pipeline.
      nested: o.hooks?.nested,
    };
    const started = Date.now();
    const result = await raceAbort(runTool(tool, input, ctx, hooks), o.signal);
    ledger.record(tool, event?.input ?? input, result, event?.decision, event?.preview?.target);
    const text = textOf(result.content);
    const image = result.content.find((c): c is Extract<ContentPart, { type: 'image' }> => c.type === 'image');
    emit({
      // The element the action reached, or the one the confirmation showed (a declined step reached none).
      type: 'step-end', id, step: stepNo, tool: tool.name, input: event?.input ?? input, target: elementLabel(result.meta?.target ?? event?.preview?.target) ?? target,
      ok: !result.isError, code: result.code, summary: text.split('\n')[0].slice(0, 200), output: text.slice(0, OUTPUT_FOR_PANEL),
      image: image && { data: image.data, mimeType: image.mimeType }, durationMs: Math.max(0, Date.now() - started - decidingMs), decision: event?.decision, fingerprint: result.meta?.target,
    });
    return result;
  };

  const agentStep = (tool: string, input: unknown, summary: string, ok = true) => {
    const id = `s${++callSeq}`;
    emit({ type: 'step-start', id, step, tool, input });
    emit({ type: 'step-end', id, step, tool, input, ok, summary: summary.slice(0, 200), output: summary, durationMs: 0 });
  };

  const pageActions = new PageActions({
    provider: o.provider,
    ctx,
    cache: o.actionCache,
    signal: o.signal,
    execute: async (name, input) => {
      const t = byName.get(name);
      if (!t) return { content: [{ type: 'text', text: `BLOCKED_BY_POLICY: ${name} is not available in this run.` }], isError: true, code: 'BLOCKED_BY_POLICY' };
      return execute(t, input, step);
    },
  });

  /** act / observe / extract: validated, run, and shown as a card saying whether the cache answered. */
  const pageAction = async (call: ToolCall): Promise<{ text: string; isError: boolean }> => {
    try {
      if (call.name === ACT) {
        const i = ActSchema.parse(call.input ?? {});
        const r = await raceAbort(pageActions.act(i.instruction), o.signal);
        agentStep(ACT, i, `${r.cached ? 'cache' : `${r.modelCalls} model call`}: ${r.text.split('\n')[0]}`);
        return { text: r.text, isError: !r.ok };
      }
      if (call.name === OBSERVE) {
        const i = ObserveSchema.parse(call.input ?? {});
        const text = await raceAbort(pageActions.observe(i.instruction), o.signal);
        agentStep(OBSERVE, i, text.split('\n')[0]);
        return { text, isError: false };
      }
      const i = ExtractSchema.parse(call.input ?? {});
      const r = await raceAbort(pageActions.extract(i.instruction, i.schema), o.signal);
      const text = r.ok ? `Extracted (validated against the schema):\n${JSON.stringify(r.data, null, 1)}` : r.text;
      agentStep(EXTRACT, { instruction: i.instruction }, text.split('\n')[0]);
      return { text, isError: !r.ok };
    } catch (e) {
      if (e instanceof Cancelled) throw e;
      const text = e instanceof z.ZodError ? `INVALID_INPUT: ${call.name}: ${e.issues.map((x) => `${x.path.join('.') || 'input'}: ${x.message}`).join('; ')}` : isAgentError(e) ? e.toText() : `CDP_ERROR: ${errorMessage(e)}`;
      return { text, isError: true };
    }
  };

  /** Skills go into the context as text and show in the panel as a card. */
  const addGuidance = (parts: UserPart[], g: Guidance | undefined) => {
    if (!g) return;
    parts.push({ type: 'text', text: g.text });
    agentStep('skills', { skills: g.names }, `Skills: ${g.names.join(', ')}`);
  };

  /** The page as it is now, for a success claim sent back: its title and address, and a fresh snapshot. */
  const pageNow = async (): Promise<{ line: string; content: ContentPart[] }> => {
    let line = 'no page (the browser is not running)';
    try {
      if (o.ctx.sessions.current) {
        const tab = await raceAbort(o.ctx.tab(), o.signal);
        line = `${tab.title ? `"${tab.title}" ` : ''}${tab.url}`;
      }
    } catch (e) {
      if (e instanceof Cancelled) throw e;
    }
    const snap = byName.get(snapshotName);
    if (!snap || !o.ctx.sessions.current) return { line, content: [] };
    const r = await execute(snap, {}, step);
    return { line, content: r.isError ? [] : visible(r.content) };
  };

  /** Specs offered this turn: a skill's allowed-tools for the current site narrows them (runTool enforces it too). */
  const offeredSpecs = async () => {
    const narrowing = await narrowingFor(o.ctx.skills, await currentPageUrl(ctx)).catch(() => undefined);
    return narrowing ? specs.filter((sp) => !byName.has(sp.name) || narrowing.tools.has(sp.name)) : specs;
  };

  const visible = (content: ContentPart[]): ContentPart[] =>
    vision ? content : content.map((c) => (c.type === 'image' ? { type: 'text', text: '[image omitted: this model works from text]' } : c));

  try {
    // Observe first: the task arrives together with the page it starts from and the user's skills for it.
    const first: UserPart[] = [{ type: 'text', text: earlier.length ? followUpText(o.task) : `Task: ${o.task}` }];
    addGuidance(first, await guide?.atStart(startUrl).catch(() => undefined));
    context.push({ role: 'user', content: first });
    const snap = byName.get(snapshotName);
    if (snap && startUrl) {
      // Unique in the thread: every run of it starts with one (the APIs refuse a repeated call id).
      const call: ToolCall = { id: earlier.length ? `initial_snapshot_${earlier.length}` : 'initial_snapshot', name: snap.name, input: {} };
      const r = await execute(snap, {}, 0);
      context.push({ role: 'assistant', text: '', toolCalls: [call] });
      context.push({ role: 'user', content: [{ type: 'tool_result', callId: call.id, name: call.name, content: visible(r.content), isError: r.isError, step: 0 }] });
    }
    tokens();

    while (true) {
      if (step >= o.maxSteps) return done('max-steps', `Stopped after ${o.maxSteps} steps without finishing.`);
      let streamed = '';
      const reply = await o.provider.send({
        system,
        messages: context.messages,
        tools: await offeredSpecs(),
        signal: o.signal,
        onText: (d) => {
          streamed += d;
          emit({ type: 'text', delta: d });
        },
      });
      replied = true;
      if (reply.usage) usage = { inputTokens: reply.usage.inputTokens, outputTokens: usage.outputTokens + reply.usage.outputTokens };
      emit({ type: 'turn', step, text: reply.text || streamed });
      context.push({ role: 'assistant', text: reply.text, toolCalls: reply.toolCalls });

      if (!reply.toolCalls.length) {
        step++;
        if (++textOnlyTurns >= 2) return done('failure', reply.text || 'The model stopped without calling finish.');
        context.push({ role: 'user', content: [{ type: 'text', text: 'Continue the task with a tool call, or call finish if it is done or cannot be done.' }] });
        tokens();
        continue;
      }
      textOnlyTurns = 0;

      const results: UserPart[] = [];
      let finished: AgentOutcome | undefined;
      let skipRest = '';
      for (const call of reply.toolCalls) {
        const answer = (content: ContentPart[], isError = false) => results.push({ type: 'tool_result', callId: call.id, name: call.name, content, isError, step });
        if (finished || skipRest) {
          answer([{ type: 'text', text: `Not run: ${finished ? 'the task was finished' : skipRest}.` }], true);
          continue;
        }
        if (call.name === FINISH) {
          const f = FinishSchema.safeParse(call.input ?? {});
          if (!f.success) {
            answer([{ type: 'text', text: `INVALID_INPUT: finish needs {success: boolean, summary: string, data?}: ${f.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` }], true);
            continue;
          }
          // A success claim over actions that failed and were not redone: the model hears it first and may fix them.
          const failed = f.data.success ? ledger.unresolved() : [];
          if (failed.length && ledger.shouldWarn(failed)) {
            agentStep(FINISH, f.data, `Not finished yet: ${ledger.headline(failed)}`, false);
            const page = await pageNow();
            answer([{ type: 'text', text: ledger.warning(failed, page.line) }, ...page.content], true);
            skipRest = 'the task was not finished yet';
            continue;
          }
          // A finish that reports failure must not look like a success (no green check).
          agentStep(FINISH, f.data, f.data.summary, f.data.success && !failed.length);
          finished = { status: !f.data.success ? 'failure' : failed.length ? 'unverified' : 'success', summary: f.data.summary, data: f.data.data, steps: step, tokens: 0, ...(failed.length ? { reason: ledger.reason(failed) } : {}) };
          answer([{ type: 'text', text: 'Finished.' }]);
          continue;
        }
        if (step >= o.maxSteps) {
          answer([{ type: 'text', text: 'Not run: the step limit was reached.' }], true);
          continue;
        }
        step++;
        if (call.name === THINK) {
          const t = ThinkSchema.safeParse(call.input ?? {});
          agentStep(THINK, call.input, t.success ? t.data.thought : 'empty thought');
          answer([{ type: 'text', text: 'Noted. Now act.' }]);
          continue;
        }
        if (call.name === ACT || call.name === OBSERVE || call.name === EXTRACT) {
          const r = await pageAction(call);
          answer([{ type: 'text', text: r.text }], r.isError);
          if (r.isError) skipRest = `an earlier call in this turn (${call.name}) failed`;
          continue;
        }
        const tool = byName.get(call.name);
        if (!tool) {
          answer([{ type: 'text', text: `INVALID_INPUT: there is no tool "${call.name}".\nHint: use one of ${[...byName.keys(), FINISH, THINK].join(', ')}.` }], true);
          continue;
        }

        const unparsed = (call.input as { __unparsedArguments?: unknown } | undefined)?.__unparsedArguments;
        if (typeof unparsed === 'string') {
          answer([{ type: 'text', text: `INVALID_INPUT: the arguments for ${call.name} are not valid JSON: ${unparsed.slice(0, 300)}\nHint: call it again with a JSON object matching its schema.` }], true);
          continue;
        }

        // Loop guard: the same call again and again means the model is not getting anywhere.
        const key = `${call.name} ${JSON.stringify(call.input ?? {})}`;
        repeats = key === lastKey ? repeats + 1 : 1;
        lastKey = key;
        if (repeats > maxIdentical) {
          if (++refusedRepeats >= 2) {
            answer([{ type: 'text', text: 'Stopped: repeated identical calls.' }], true);
            context.push({ role: 'user', content: results });
            return done('stuck', `Stopped: the model repeated ${call.name} with the same arguments ${repeats} times in a row.`);
          }
          answer([{ type: 'text', text: `LOOP_DETECTED: ${call.name} was called with the same arguments ${repeats - 1} times in a row and was not run again.\nHint: the page is not changing this way; take a fresh snapshot, try another element or approach, or finish.` }], true);
          continue;
        }

        const r = await execute(tool, call.input, step);
        let content = visible(r.content);
        const target = targetOf(call.input);
        if (r.isError && r.code !== 'BLOCKED_BY_POLICY' && target) {
          const tkey = `${call.name}|${target}`;
          const n = (failedTargets.get(tkey) ?? 0) + 1;
          failedTargets.set(tkey, n);
          const snapTool = byName.get(snapshotName);
          // Second failure on one target: the model's picture of the page is probably stale.
          if (n >= 2 && snapTool && call.name !== snapshotName) {
            const fresh = await execute(snapTool, {}, step);
            content = [...content, { type: 'text', text: `\nThis failed ${n} times on the same target, so here is a fresh snapshot:` }, ...visible(fresh.content)];
            failedTargets.delete(tkey);
          }
        } else if (!r.isError && vision && !tool.readOnly) {
          // Verify: a vision model checks the effect of an action on a fresh screenshot.
          const shot = byName.get(screenshotName);
          if (shot) {
            const s = await execute(shot, {}, step);
            if (!s.isError) content = [...content, ...s.content.filter((c) => c.type === 'image')];
          }
        }
        answer(content, !!r.isError);
        if (r.isError && r.code !== 'BLOCKED_BY_POLICY') skipRest = `an earlier call in this turn (${call.name}) failed`;
      }
      if (!finished) addGuidance(results, await guide?.onPage(await currentPageUrl(ctx)).catch(() => undefined));
      context.push({ role: 'user', content: results });
      tokens();
      if (finished) return done(finished.status, finished.summary, finished.data, finished.reason);
    }
  } catch (e) {
    if (o.signal.aborted || e instanceof Cancelled) return done('stopped', 'Stopped by the user.');
    return done('error', errorMessage(e));
  }
}
