import { z } from 'zod';
import { errorMessage, isAgentError } from '../base/errors';
import { currentPageUrl, narrowingFor } from '../skills/gate';
import { runTool, type RunHooks, type StepEvent } from '../runtime/runner';
import type { ContentPart, ToolContext, ToolDefinition, ToolResult } from '../contract/types';
import { Cancelled, raceAbort } from './abort';
import { agentToolSpecs, needsVision, specOf } from './agentTools';
import { AgentContext, DEFAULT_LIMITS, type ContextLimits } from './context';
import type { AgentEvent, AgentOutcome, AgentStatus } from './events';
import { FailedTargets, RepeatGuard } from './loopGuards';
import { systemPrompt } from './prompt';
import { elementLabel, stepTarget, targetOf } from './stepTarget';
import { SkillGuide, type Guidance } from './skillGuide';
import { ACT, ActSchema, EXTRACT, ExtractSchema, OBSERVE, ObserveSchema, pageActionSpecs } from './act/agentSpecs';
import type { ActionCache } from './act/cache';
import { PageActions } from './act/pageActions';
import { carryOver } from './thread';
import type { AgentMessage, AgentMode, ChatProvider, ToolCall, ToolSpec, UserPart } from './types';
import { ActionLedger } from './verify';
import { ignore } from '../base/ignore';

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

/**
 * One run of the agent: what it was given, what it has counted so far, and the steps the loop (loop.ts) and
 * each call of a turn (turnCalls.ts) take: run a tool with the panel's step events, show an agent step,
 * answer act / observe / extract, add skills, look at the page, end the run.
 */
export class AgentRun {
  readonly snapshotName: string;
  readonly screenshotName: string;
  /** The model sees images (hybrid mode and a model with vision). */
  readonly vision: boolean;
  readonly byName: Map<string, ToolDefinition>;
  private readonly specs: ToolSpec[];
  readonly ctx: ToolContext;
  readonly guide?: SkillGuide;
  readonly context: AgentContext;
  /** The thread carried over from earlier runs. */
  readonly earlier: AgentMessage[];
  readonly ledger = new ActionLedger();
  readonly repeats: RepeatGuard;
  readonly failedTargets = new FailedTargets();
  private readonly pageActions: PageActions;

  /** Steps taken (each call the model makes, and each text-only turn). */
  step = 0;
  /** Numbers the panel's step cards. */
  private callSeq = 0;
  /** A run the model never answered leaves the thread as it was (the person sends the message again). */
  replied = false;
  textOnlyTurns = 0;
  usage = { inputTokens: 0, outputTokens: 0 };
  startUrl?: string;
  private startTitle?: string;
  system = '';

  constructor(readonly o: AgentOptions) {
    this.snapshotName = o.snapshotTool ?? 'browser_snapshot';
    this.screenshotName = o.screenshotTool ?? 'browser_screenshot';
    this.vision = o.mode === 'hybrid' && o.provider.capabilities.vision;
    const tools = o.tools.filter((t) => this.vision || !needsVision(t));
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.specs = [...tools.map(specOf), ...pageActionSpecs, ...agentToolSpecs];
    this.ctx = { ...o.ctx, signal: o.signal };
    this.guide = o.ctx.skills ? new SkillGuide(o.ctx.skills, o.task) : undefined;
    const isSnapshot = (n: string) => /snapshot/i.test(n);
    this.context = new AgentContext(isSnapshot, o.limits ?? DEFAULT_LIMITS);
    this.earlier = o.earlier?.length ? carryOver(o.earlier, undefined, isSnapshot) : [];
    for (const m of this.earlier) this.context.push(m);
    this.repeats = new RepeatGuard(o.maxIdenticalCalls ?? 3);
    this.pageActions = new PageActions({
      provider: o.provider,
      ctx: this.ctx,
      cache: o.actionCache,
      signal: o.signal,
      execute: async (name, input) => {
        const t = this.byName.get(name);
        if (!t) return { content: [{ type: 'text', text: `BLOCKED_BY_POLICY: ${name} is not available in this run.` }], isError: true, code: 'BLOCKED_BY_POLICY' };
        return this.execute(t, input, this.step);
      },
    });
  }

  /** The page the run starts from (none when no browser runs yet) and the system prompt that names it. */
  async start(): Promise<void> {
    const { o } = this;
    try {
      const tab = o.ctx.sessions.current ? await raceAbort(o.ctx.tab(), o.signal) : undefined;
      this.startUrl = tab?.url;
      this.startTitle = tab?.title;
    } catch (e) {
      ignore(e, 'no browser yet: the model navigates first');
    }
    this.system = systemPrompt({ mode: this.vision ? 'hybrid' : 'dom', toolNames: [...this.byName.keys()], startUrl: this.startUrl, startTitle: this.startTitle, now: o.now ?? new Date(), maxSteps: o.maxSteps });
  }

  emit(e: AgentEvent): void {
    try {
      this.o.onEvent?.(e);
    } catch (e) {
      ignore(e, 'an observer never breaks the run');
    }
  }

  done(status: AgentStatus, summary: string, data?: unknown, reason?: string): AgentOutcome {
    const conversation = this.replied ? this.context.messages : [...(this.o.earlier ?? [])];
    const outcome: AgentOutcome = { status, summary, data, steps: this.step, tokens: this.context.tokens(this.system), ...(reason ? { reason } : {}), conversation };
    this.emit({ type: 'done', outcome });
    return outcome;
  }

  tokens(): void {
    this.emit({ type: 'tokens', estimate: this.context.tokens(this.system), ...(this.usage.inputTokens ? this.usage : {}) });
  }

  /** Runs one registry tool through the shared runner, emitting the panel's step events. */
  async execute(tool: ToolDefinition, input: unknown, stepNo: number): Promise<ToolResult> {
    const { o, ctx } = this;
    const emit = (e: AgentEvent) => this.emit(e);
    const id = `s${++this.callSeq}`;
    const target = await stepTarget(input, ctx).catch((e) => ignore(e, "the step's target is read from the input alone", targetOf(input)));
    emit({ type: 'step-start', id, step: stepNo, tool: tool.name, input, target });
    let event: StepEvent | undefined;
    // Time spent deciding (a person reading a confirmation) is not the action's duration.
    let decidingMs = 0;
    // A decision that takes a moment is a person looking at a confirmation: say so in the panel.
    const watched = (decide: RunHooks['decide']): RunHooks['decide'] =>
      decide &&
      (async (t, i, preview, c) => {
        let shown = false;
        const waiting = setTimeout(() => {
          shown = true;
          const call = preview?.inScript ? ` (script call ${preview.inScript.call}${preview.inScript.line ? `, line ${preview.inScript.line}` : ''})` : '';
          emit({ type: 'status', text: `Waiting for your confirmation${preview ? `: ${preview.message}` : ''}${call}` });
        }, 250);
        const t0 = Date.now();
        try {
          return await decide(t, i, preview, c);
        } finally {
          decidingMs += Date.now() - t0;
          clearTimeout(waiting);
          if (shown) emit({ type: 'status', text: '' });
        }
      });
    const nested = o.hooks?.nested;
    const hooks: RunHooks = {
      decide: watched(o.hooks?.decide),
      onStep: async (e) => {
        event = e;
        await o.hooks?.onStep?.(e);
      },
      // A script's calls (browser_run_script) run through the run's own pipeline; the panel says when one waits for you.
      nested: nested && {
        tool: nested.tool,
        hooks: () => {
          const h = nested.hooks();
          // Each call of the script gets a card of its own under the script's, once it is done.
          const onStep = async (e: StepEvent) => {
            await h.onStep?.(e);
            const innerId = `${id}.${e.preview?.inScript?.call ?? ++this.callSeq}`;
            const text = textOf(e.result.content);
            emit({ type: 'step-start', id: innerId, step: stepNo, tool: e.tool, input: e.input });
            emit({
              type: 'step-end', id: innerId, step: stepNo, tool: e.tool, input: e.input, target: elementLabel(e.result.meta?.target ?? e.preview?.target),
              ok: !e.result.isError, code: e.result.code, summary: text.split('\n')[0].slice(0, 200), output: text.slice(0, OUTPUT_FOR_PANEL),
              durationMs: e.durationMs, decision: e.decision, fingerprint: e.result.meta?.target,
            });
          };
          return { ...h, decide: watched(h.decide), onStep };
        },
      },
    };
    const started = Date.now();
    const result = await raceAbort(runTool(tool, input, ctx, hooks), o.signal);
    this.ledger.record(tool, event?.input ?? input, result, event?.decision, event?.preview?.target);
    const text = textOf(result.content);
    const image = result.content.find((c): c is Extract<ContentPart, { type: 'image' }> => c.type === 'image');
    emit({
      // The element the action reached, or the one the confirmation showed (a declined step reached none).
      type: 'step-end', id, step: stepNo, tool: tool.name, input: event?.input ?? input, target: elementLabel(result.meta?.target ?? event?.preview?.target) ?? target,
      ok: !result.isError, code: result.code, summary: text.split('\n')[0].slice(0, 200), output: text.slice(0, OUTPUT_FOR_PANEL),
      image: image && { data: image.data, mimeType: image.mimeType }, durationMs: Math.max(0, Date.now() - started - decidingMs), decision: event?.decision, fingerprint: result.meta?.target,
    });
    return result;
  }

  /** A step of the agent's own (think, finish, act, skills) as a card in the panel. */
  agentStep(tool: string, input: unknown, summary: string, ok = true): void {
    const id = `s${++this.callSeq}`;
    const { step } = this;
    this.emit({ type: 'step-start', id, step, tool, input });
    this.emit({ type: 'step-end', id, step, tool, input, ok, summary: summary.slice(0, 200), output: summary, durationMs: 0 });
  }

  /** act / observe / extract: validated, run, and shown as a card saying whether the cache answered. */
  async pageAction(call: ToolCall): Promise<{ text: string; isError: boolean }> {
    const { pageActions, o } = this;
    try {
      if (call.name === ACT) {
        const i = ActSchema.parse(call.input ?? {});
        const r = await raceAbort(pageActions.act(i.instruction), o.signal);
        this.agentStep(ACT, i, `${r.cached ? 'cache' : `${r.modelCalls} model call`}: ${r.text.split('\n')[0]}`);
        return { text: r.text, isError: !r.ok };
      }
      if (call.name === OBSERVE) {
        const i = ObserveSchema.parse(call.input ?? {});
        const text = await raceAbort(pageActions.observe(i.instruction), o.signal);
        this.agentStep(OBSERVE, i, text.split('\n')[0]);
        return { text, isError: false };
      }
      const i = ExtractSchema.parse(call.input ?? {});
      const r = await raceAbort(pageActions.extract(i.instruction, i.schema), o.signal);
      const text = r.ok ? `Extracted (validated against the schema):\n${JSON.stringify(r.data, null, 1)}` : r.text;
      this.agentStep(EXTRACT, { instruction: i.instruction }, text.split('\n')[0]);
      return { text, isError: !r.ok };
    } catch (e) {
      if (e instanceof Cancelled) throw e;
      const text = e instanceof z.ZodError ? `INVALID_INPUT: ${call.name}: ${e.issues.map((x) => `${x.path.join('.') || 'input'}: ${x.message}`).join('; ')}` : isAgentError(e) ? e.toText() : `CDP_ERROR: ${errorMessage(e)}`;
      return { text, isError: true };
    }
  }

  /** Skills go into the context as text and show in the panel as a card. */
  addGuidance(parts: UserPart[], g: Guidance | undefined): void {
    if (!g) return;
    parts.push({ type: 'text', text: g.text });
    this.agentStep('skills', { skills: g.names }, `Skills: ${g.names.join(', ')}`);
  }

  /** The page as it is now, for a success claim sent back: its title and address, and a fresh snapshot. */
  async pageNow(): Promise<{ line: string; content: ContentPart[] }> {
    const { o } = this;
    let line = 'no page (the browser is not running)';
    try {
      if (o.ctx.sessions.current) {
        const tab = await raceAbort(o.ctx.tab(), o.signal);
        line = `${tab.title ? `"${tab.title}" ` : ''}${tab.url}`;
      }
    } catch (e) {
      if (e instanceof Cancelled) throw e;
    }
    const snap = this.byName.get(this.snapshotName);
    if (!snap || !o.ctx.sessions.current) return { line, content: [] };
    const r = await this.execute(snap, {}, this.step);
    return { line, content: r.isError ? [] : this.visible(r.content) };
  }

  /** Specs offered this turn: a skill's allowed-tools for the current site narrows them (runTool enforces it too). */
  async offeredSpecs(): Promise<ToolSpec[]> {
    const narrowing = await narrowingFor(this.o.ctx.skills, await currentPageUrl(this.ctx)).catch((e) => ignore(e, "no narrowing read: all specs offered (runTool enforces a skill's allowed-tools)"));
    return narrowing ? this.specs.filter((sp) => !this.byName.has(sp.name) || narrowing.tools.has(sp.name)) : this.specs;
  }

  /** A tool's content as the model may see it: images only for a model that works from them. */
  visible(content: ContentPart[]): ContentPart[] {
    return this.vision ? content : content.map((c) => (c.type === 'image' ? { type: 'text', text: '[image omitted: this model works from text]' } : c));
  }
}
