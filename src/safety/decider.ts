import type { RunHooks } from '../runtime/runner';
import type { ActionPreview, ExecutionGuard, ToolContext, ToolDefinition, PageFacts } from '../contract/types';
import { checkRequestOrigin, checkUrl, hasOriginRules, interceptPatterns, webSocketBlockPatterns } from './origins';
import { originOf } from '../base/originGlob';
import { requestRegexRules } from './regexRules';
import type { RequestPolicy } from '../session/requestRules';
import { ratePolicy } from './policy';
import { SECRET_PLACEHOLDER, type SecretVault } from './secrets';
import type { PolicySettings } from './settings';
import type { Decision, Rating } from '../contract/decision';
import { readFocusAndText } from '../actions/focusFacts';
import { displaySafePreview } from './confirmDisplay';
import { ignore } from '../base/ignore';

/** What a person is asked. Everything needed to name the action, element, page and rule. */
export interface ConfirmRequest {
  tool: string;
  toolTitle: string;
  rating: Rating;
  preview?: ActionPreview;
  /** Origin (or URL) of the page the action happens on. */
  origin?: string;
  pageTitle?: string;
}

/** `unavailable`: nobody can be asked here (an MCP client without elicitation); not the same as a person saying no. */
export type ConfirmAnswer = 'allow' | 'allow-site' | 'refuse' | 'unavailable';
/** Asks a person (VS Code modal, MCP elicitation, a test). Must resolve; a dismissed dialog is 'refuse'. */
export type Confirmer = (req: ConfirmRequest) => Promise<ConfirmAnswer>;
/** Tells a person about a `notify` action; never blocks it. */
export type Notifier = (message: string, req: ConfirmRequest) => void;

/** "Allow for this site in this session": per origin and rule, forgotten when the session ends. */
export class SiteAllowances {
  private readonly allowed = new Set<string>();
  private key(origin: string | undefined, rule: string | undefined): string {
    return `${origin ?? '?'}\u0000${rule ?? '?'}`;
  }

  allow(origin: string | undefined, rule: string | undefined): void {
    this.allowed.add(this.key(origin, rule));
  }

  has(origin: string | undefined, rule: string | undefined): boolean {
    return this.allowed.has(this.key(origin, rule));
  }

  clear(): void {
    this.allowed.clear();
  }

  /** How many answers are remembered (the Forget command says what it did). */
  get size(): number {
    return this.allowed.size;
  }
}

export interface DeciderOptions {
  vault?: SecretVault;
  allowances?: SiteAllowances;
  /** Page text for sensitive-page phrases; default reads the active tab's innerText (read-only, capped). */
  pageFacts?(ctx: ToolContext, preview: ActionPreview | undefined): Promise<PageFacts | undefined>;
  /** URL of a frame by id; default asks the tab over CDP (out-of-process frames and in-process ones). */
  frameUrl?(ctx: ToolContext, frameId: string): Promise<string | undefined>;
}

/** Visible text and focused element of the active tab; failures (no browser yet, dialog open) mean "no facts". */
export async function readPageFacts(ctx: ToolContext): Promise<PageFacts | undefined> {
  try {
    const tab = await ctx.tab();
    // Nothing to read: a crashed page answers nothing (the handler says PAGE_CRASHED), and an open dialog holds
    // every script until it is answered (each call would wait out the 2 s timeout).
    if (tab.crashed || tab.dialog) return undefined;
    return await readFocusAndText(tab);
  } catch {
    return undefined;
  }
}

interface FrameTreeNode {
  frame: { id: string; url: string; urlFragment?: string };
  childFrames?: FrameTreeNode[];
}

function findFrame(node: FrameTreeNode | undefined, id: string): string | undefined {
  if (!node) return undefined;
  if (node.frame.id === id) return node.frame.url + (node.frame.urlFragment ?? '');
  for (const child of node.childFrames ?? []) {
    const hit = findFrame(child, id);
    if (hit) return hit;
  }
  return undefined;
}

/** The current URL of a frame of the active tab (main page, in-process iframe, or out-of-process iframe). */
export async function resolveFrameUrl(ctx: ToolContext, frameId: string): Promise<string | undefined> {
  try {
    const tab = await ctx.tab();
    if (frameId === tab.targetId) return undefined; // the main frame: already checked as the page
    const sessions = [await tab.session(), ...tab.frameSessions().map((f) => f.session)];
    for (const session of sessions) {
      const tree = await session.send('Page.getFrameTree', undefined, 2000).catch((e) => ignore(e, 'a frame that does not answer is searched no further'));
      const hit = findFrame(tree?.frameTree as FrameTreeNode | undefined, frameId);
      if (hit) return hit;
    }
    return tab.frameSession(frameId)?.url;
  } catch {
    return undefined;
  }
}

export interface Decider {
  /** The `decide` hook for runTool. */
  decide: NonNullable<RunHooks['decide']>;
  /** Rates without asking (prepareInvocation, previews). */
  rate(tool: ToolDefinition, input: unknown, preview: ActionPreview | undefined, ctx: ToolContext): Promise<Rating>;
  /** A decide hook that treats `preconfirmed` (already asked by Copilot's confirmation) as answered yes. */
  decideWith(preconfirmed?: Rating): NonNullable<RunHooks['decide']>;
  allowances: SiteAllowances;
  /** Asks (or applies an allowance) for a rating known only while the handler runs. */
  confirmRating(tool: string, rating: Rating, preview: ActionPreview | undefined): Promise<Decision>;
}

function needsPageText(tool: ToolDefinition): boolean {
  return tool.risk === 'input';
}

/**
 * Builds the safety gate every front door plugs into runTool. Settings are read at each call so a
 * settings change applies at once.
 */
export function createDecider(settings: () => PolicySettings, confirmer: Confirmer, notifier?: Notifier, options: DeciderOptions = {}): Decider {
  const allowances = options.allowances ?? new SiteAllowances();
  const facts = options.pageFacts ?? ((ctx: ToolContext) => readPageFacts(ctx));
  // The session enforces the origin lists at the request; the rules stay here (read live, so a settings change applies).
  const requestPolicy: RequestPolicy = {
    active: () => hasOriginRules(settings()),
    check: (url) => {
      const v = checkRequestOrigin(url, settings());
      return v.allowed ? undefined : { rule: v.rule ?? 'blocked-origin', reason: v.reason ?? 'blocked by the safety policy' };
    },
    blockPatterns: () => webSocketBlockPatterns(settings()),
    interceptPatterns: () => interceptPatterns(settings()),
    regexRules: () => requestRegexRules(settings()),
    // Where a tab may stay (the session leaves a page that fails this): the origin lists and the scheme rule.
    checkPage: (url) => {
      const v = checkUrl(url, settings());
      return v.allowed ? undefined : { rule: v.rule ?? 'blocked-origin', reason: v.reason ?? 'blocked by the safety policy' };
    },
  };

  async function rate(tool: ToolDefinition, input: unknown, preview: ActionPreview | undefined, ctx: ToolContext): Promise<Rating> {
    const s = settings();
    // Previews name a frame by id; the origin lists need its URL.
    const frame = preview?.target?.frame;
    const base: PageFacts = frame && !/^[a-z][a-z0-9+.-]*:/i.test(frame) ? { frameUrl: await (options.frameUrl ?? resolveFrameUrl)(ctx, frame) } : {};
    const first = ratePolicy(tool.name, tool.risk, input, preview, s, base);
    // Page text only matters when it could raise the level (a sensitive target on a page whose URL looks harmless).
    if (first.level === 'block' || !needsPageText(tool) || first.rule === 'sensitive-target-on-sensitive-page') return first;
    return ratePolicy(tool.name, tool.risk, input, preview, s, { ...base, ...(await facts(ctx, preview)) });
  }

  function request(tool: string, toolTitle: string, rating: Rating, preview: ActionPreview | undefined): ConfirmRequest {
    const page = preview?.url;
    const shown = displaySafePreview(preview);
    return { tool, toolTitle, rating, preview: shown, origin: originOf(page) ?? page, pageTitle: shown?.title };
  }

  async function settle(tool: string, toolTitle: string, rating: Rating, preview: ActionPreview | undefined, preconfirmed?: Rating): Promise<Decision> {
    const req = request(tool, toolTitle, rating, preview);
    switch (rating.level) {
      case 'auto':
        return { rating, outcome: 'auto' };
      case 'block':
        return { rating, outcome: 'blocked' };
      case 'notify':
        try {
          notifier?.(`${preview?.message ?? tool}: ${rating.reason ?? 'flagged by the safety policy'}`, req);
        } catch (e) {
          ignore(e, 'a failing notification never stops the action');
        }
        return { rating, outcome: 'notified' };
      case 'confirm': {
        if (preconfirmed && preconfirmed.level === 'confirm' && preconfirmed.rule === rating.rule) return { rating, outcome: 'allowed' };
        if (allowances.has(req.origin, rating.rule)) return { rating, outcome: 'allowed' };
        let answer: ConfirmAnswer;
        try {
          answer = await confirmer(req);
        } catch {
          answer = 'refuse';
        }
        if (answer === 'allow-site') allowances.allow(req.origin, rating.rule);
        return { rating, outcome: answer === 'refuse' ? 'refused' : answer === 'unavailable' ? 'needs-confirmation' : 'allowed' };
      }
    }
  }

  function decideWith(preconfirmed?: Rating): NonNullable<RunHooks['decide']> {
    return async (tool, input, preview, ctx) => {
      await ctx.sessions?.setRequestPolicy?.(requestPolicy);
      const rating = await rate(tool, input, preview, ctx);
      // The element may change between this check and the click: the action rates what it really clicks (atUse.ts).
      const guard: ExecutionGuard = {
        settings,
        confirm: (r, p) => settle(tool.name, tool.title, r, p ?? preview),
        atUse: { preview, decided: rating, rate: (target, slot = 'target') => rate(tool, input, { ...(preview ?? { message: tool.name }), [slot]: target }, ctx) },
      };
      // Text typed into a password/card/OTP field is a secret from now on: scrubbed everywhere, the question included.
      if (options.vault && rating.rule === 'sensitive-field') rememberTyped(options.vault, input);
      const decision = await settle(tool.name, tool.title, rating, options.vault ? options.vault.redactDeep(preview) : preview, preconfirmed);
      return { decision, guard };
    };
  }

  return {
    decide: decideWith(),
    decideWith,
    rate,
    allowances,
    confirmRating: (tool, rating, preview) => settle(tool, tool, rating, preview),
  };
}

/** Every string typed by a tool input (text, value, fields[].value) goes into the vault. */
export function rememberTyped(vault: SecretVault, input: unknown): void {
  const visit = (v: unknown, key?: string) => {
    if (typeof v === 'string') {
      // A {{secret:NAME}} placeholder is a name, not a value: the vault learns its value when it resolves it,
      // and the log keeps the placeholder so a replay can resolve it again.
      if ((key === 'text' || key === 'value' || key === 'values') && v.replace(SECRET_PLACEHOLDER, '').trim()) vault.remember(v);
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
  };
  visit(input);
}
