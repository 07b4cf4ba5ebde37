import type { z } from 'zod';
import type { BrowserSession } from '../session/browserSession';
import type { SessionManager } from '../session/manager';
import type { Tab } from '../session/tab';
import type { SkillLibrary } from '../skills/library';
import type { Decision, Rating } from './decision';
import type { ElementFacts } from '../page/actions/elementFacts';

/**
 * What kind of thing a tool does; the safety policy (src/safety) turns this, the target element
 * and the page into a risk level. `read` never changes the page.
 */
export type RiskCategory = 'read' | 'navigate' | 'input' | 'script' | 'upload' | 'session';

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' };

/** The element an action targeted, as recorded for the audit log and for replay. */
export interface TargetFingerprint {
  ref?: string;
  role?: string;
  name?: string;
  /** `main` or the frame's URL (what replay looks for and people read). */
  frame?: string;
  /** The raw CDP frame id, when known: for the JSON, never shown as the frame. */
  frameId?: string;
  selector?: string;
  xpath?: string;
  /** Text next to the element (its nearest ancestors'), so replay can tell same-named elements apart. */
  near?: string;
}

export interface ToolResult {
  content: ContentPart[];
  isError?: boolean;
  /** Error code when isError (see src/base/errors.ts). */
  code?: string;
  /** Facts for the audit log and the chat panel; never shown to the model. */
  meta?: {
    target?: TargetFingerprint;
    urlBefore?: string;
    urlAfter?: string;
    titleAfter?: string;
  };
}

/** Page and element facts a tool knows before acting, for the safety policy and confirmations. */
export interface ActionPreview {
  /** Present tense, for a person: `Clicking button "Submit" on example.com`. */
  message: string;
  url?: string;
  title?: string;
  target?: TargetFingerprint & { tag?: string; type?: string; inputType?: string; autocomplete?: string; inForm?: boolean; facts?: ElementFacts };
  /** For browser_fill_form: each field's element and the value it gets. */
  fields?: { target?: ActionPreview['target']; value: unknown }[];
  /** For drags: the element dropped onto (a trash can is a delete). */
  dropTarget?: ActionPreview['target'];
  /** For navigation: where it goes. */
  destination?: string;
  /** For typing: whether the text is a secret (password field, secret placeholder). */
  secret?: boolean;
  /** For scripts: the code, shown once and as code in confirmations. */
  code?: string;
  /** A call made by a browser_run_script script: the script and where in it the call is, for confirmations and the audit log. */
  inScript?: ScriptCall;
}

/** Which call of a script an inner call is: the person asked sees the script and the line. */
export interface ScriptCall {
  /** 1, 2, 3, … in the order the script made them. */
  call: number;
  /** The script's line the call was made on, when known. */
  line?: number;
  /** The function the script called (`click`). */
  fn: string;
  /** The script's text. */
  script: string;
}

/** Everything a handler may use. One context type serves MCP, Copilot and the chat agent. */
export interface ToolContext {
  sessions: SessionManager;
  /** The live browser (launched or reattached on demand). */
  browser(): Promise<BrowserSession>;
  /** The active tab, attached. */
  tab(): Promise<Tab>;
  /** Aborted when the user or the model cancels: waits and in-flight actions stop. */
  signal?: AbortSignal;
  settings: ToolSettings;
  /**
   * Which tabs this front door may list, select and close. Several MCP processes attached to one
   * browser each see only their own tabs. Absent: all tabs.
   */
  ownsTab?(tabId: string): boolean;
  /** Site skills (SKILL.md files) for browser_skills_search and the allowed-tools gate. Absent: none. */
  skills?: SkillLibrary;
  /**
   * The checks a handler makes while it runs (what is under the pointer, an executable download, a secret's
   * site): set for each call by the safety gate, whose decision runTool passes on here; a copy of the context
   * (`{ ...ctx }`) keeps it. Absent: an action that needs such a check refuses (fails closed).
   */
  guard?: ExecutionGuard | NoPolicy;
  /**
   * Runs another registry tool through the same pipeline as this call (validation, skill gate, policy,
   * confirmation, secrets, audit): how browser_run_script acts. Set by runTool from the pipeline's hooks;
   * absent → a tool that needs it refuses (fails closed).
   */
  runTool?(tool: ToolDefinition, input: unknown, ctx: ToolContext, observe?: NestedCallObserver): Promise<ToolResult>;
}

/** What a caller of ctx.runTool may watch: the safety decision (which may wait for a person) starting and ending. */
export interface NestedCallObserver {
  deciding?(): () => void;
}

/** What the checks at the moment of use read of the safety settings (a PolicySettings, safety/settings.ts, is one). */
export interface GuardSettings {
  executableExtensions: string[];
  secretOrigins: string[];
}

/**
 * Checks a handler makes while it runs, when a risk only becomes known at execution: the element really under
 * the pointer or holding the focus (actions/atUse.ts), a download's file name, the secret origins of the call.
 * Origins are not checked here: the session enforces them itself with the rules the decider hands it.
 */
export interface ExecutionGuard {
  settings(): GuardSettings;
  confirm(rating: Rating, preview?: ActionPreview): Promise<Decision>;
  /** What the decider rated, for the check at the moment of use. */
  atUse: AtUse;
}

/** What the decider leaves for the moment of use: the preview it rated, its rating, and how to rate again. */
export interface AtUse {
  preview?: ActionPreview;
  decided: Rating;
  /** Rates the call again with `target` as its element (`slot` target), or as the element dropped onto (`dropTarget`). */
  rate(target: NonNullable<ActionPreview['target']>, slot?: 'target' | 'dropTarget'): Promise<Rating>;
}

/** A context that runs tools with no safety policy on purpose. */
export interface NoPolicy {
  readonly noPolicy: true;
}

/**
 * For the tools' own tests only (nothing in src/ uses it; test/safety/guardField.test.ts checks): their checks at
 * the moment of use pass. Running without a policy is then written down, never the absence of a guard.
 */
export const NO_POLICY: NoPolicy = Object.freeze({ noPolicy: true });

export interface ToolSettings {
  /** URL schemes navigation may use besides http, https and about:blank. */
  allowedSchemes: string[];
  /** Folder downloads are saved to. */
  downloadsDir: string;
  /** Upper bound for any wait a tool does. */
  maxWaitMs: number;
  /** Token budget of a snapshot when the call gives none (default DEFAULT_MAX_TOKENS, 16,000). */
  snapshotMaxTokens?: number;
  /** Tokens of a long page a snapshot shows before folding its text (default DEFAULT_FOLD_TEXT_AFTER, 3,000; 0 never folds). */
  snapshotFoldTextAfter?: number;
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  /** Public name, e.g. `browser_click`: part of our interface, never renamed. */
  name: string;
  /** Short human title for UIs. */
  title: string;
  /** Written for a model: what it does, when to use it, what it returns. */
  description: string;
  schema: S;
  risk: RiskCategory;
  /** True when the tool never changes the page (MCP readOnlyHint). */
  readOnly?: boolean;
  /** True when it can destroy state (MCP destructiveHint). */
  destructive?: boolean;
  /**
   * May run alongside other `concurrent` calls on the same tab: it only reads pixels or text and
   * touches no ref state (src/runtime/tabLocks.ts). Everything else has the tab to itself.
   */
  concurrent?: boolean;
  /** Needs no browser (it reads the page only if one is open): never launches one, takes no tab turn. */
  browserless?: boolean;
  /**
   * Acts only by running other tools through ctx.runTool (browser_run_script): `{{secret:NAME}}` in its input is
   * passed on unresolved, and replay and export skip its own step (its calls are recorded as steps of their own).
   */
  composite?: boolean;
  /** Side-effect free: what the call would do, for confirmations and prepareInvocation. */
  preview?(input: z.infer<S>, ctx: ToolContext): Promise<ActionPreview>;
  handler(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodObject>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

export function text(t: string): ToolResult {
  return { content: [{ type: 'text', text: t }] };
}

/** Everything an element shows or is called by, read live from the page for the risk policy (page/actions/elementFacts.ts). */
export type { ElementFacts };

/** What the policy may know about the page beyond the preview (read side-effect free). */
export interface PageFacts {
  /** Visible text of the page (truncated), for sensitive-page phrases in any language. */
  text?: string;
  /** URL of the frame holding the target when the preview names the frame by id (resolved over CDP). */
  frameUrl?: string;
  /** The focused element, for calls without a target (typing into / pressing Enter on whatever has focus). */
  focused?: NonNullable<ActionPreview['target']>;
  /** The URL of the iframe the focused element is in (another origin's field: the origin lists and secret bindings apply to it). */
  focusedFrameUrl?: string;
}
