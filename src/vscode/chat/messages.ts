import * as z from 'zod/mini';
import { MODEL_FIXES } from '../../agent/providers/modelError';

/**
 * The contract between the chat webview and the extension, both directions, validated with zod
 * on arrival (a webview is a separate page: nothing it sends is trusted blindly). Shared by
 * src/vscode/chat (extension side) and media/chat.ts (webview side).
 */

export const ProviderIdSchema = z.enum(['vscode-lm', 'anthropic', 'openai']);
export const ModeSettingSchema = z.enum(['auto', 'dom', 'hybrid']);

export const ToWebviewCard = z.object({
  id: z.string(),
  tool: z.string(),
  target: z.optional(z.string()),
  input: z.unknown(),
  state: z.enum(['running', 'ok', 'error']),
  summary: z.optional(z.string()),
  output: z.optional(z.string()),
  code: z.optional(z.string()),
  durationMs: z.optional(z.number()),
  /** data: URL of a small JPEG/PNG. */
  thumbnail: z.optional(z.string()),
  decision: z.optional(z.string()),
  reason: z.optional(z.string()),
  /** For failures: the message without its code, and the fix-it hint, shown without expanding the card. */
  message: z.optional(z.string()),
  hint: z.optional(z.string()),
  /** Fix-it buttons for the failure (Open Settings, How to Attach, Show Log). */
  fixes: z.optional(z.array(z.enum(['Open Settings', 'How to Attach', 'Show Log']))),
});
export type Card = z.infer<typeof ToWebviewCard>;

/** One entry of a task's visible transcript. */
export const EntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), text: z.string() }),
  z.object({ kind: z.literal('assistant'), text: z.string() }),
  z.object({ kind: z.literal('card'), card: ToWebviewCard }),
  /** `reason`: why the outcome is not what the model claimed (a success claim over failed actions). */
  /** `fixes`: for a model error, the buttons that fix it (Set API Key, Retry…), acted on by the panel. */
  z.object({
    kind: z.literal('result'), status: z.string(), summary: z.string(), data: z.optional(z.unknown()), reason: z.optional(z.string()),
    fixes: z.optional(z.array(z.enum(MODEL_FIXES))),
  }),
  z.object({ kind: z.literal('notice'), text: z.string() }),
]);
export type Entry = z.infer<typeof EntrySchema>;

export const TaskRecordSchema = z.object({
  id: z.string(),
  /** The chat thread this run is a turn of (its first task's id). */
  threadId: z.optional(z.string()),
  task: z.string(),
  startedAt: z.number(),
  endedAt: z.optional(z.number()),
  provider: z.string(),
  status: z.string(),
  entries: z.array(EntrySchema),
  tokens: z.optional(z.number()),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** One task in the history list: the same store and words as the Task History view. */
/** One thread in the history list (`id`: its first task's); `when` its newest activity, `turns` how many runs it has. */
export const HistoryItemSchema = z.object({
  id: z.string(), task: z.string(), status: z.string(), label: z.optional(z.string()), source: z.optional(z.string()), startedAt: z.number(),
  when: z.optional(z.string()), turns: z.optional(z.number()),
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

/** A provider as the panel's setup shows it: what it needs, what it has, whether a run can start with it. */
export const ProviderStatusSchema = z.object({
  provider: ProviderIdSchema,
  title: z.string(),
  ready: z.boolean(),
  detail: z.string(),
  endpoint: z.optional(z.string()),
  model: z.optional(z.string()),
  keySaved: z.optional(z.boolean()),
  /** Models the endpoint lists (GET /models). */
  models: z.optional(z.array(z.string())),
  /** Ollama or LM Studio answering on this machine. */
  local: z.optional(z.array(z.object({ name: z.string(), baseURL: z.string(), models: z.array(z.string()) }))),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

export const ModelChoiceSchema = z.object({ provider: ProviderIdSchema, model: z.string(), label: z.string() });
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

export const ToWebview = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    models: z.array(ModelChoiceSchema),
    selected: z.optional(ModelChoiceSchema),
    mode: ModeSettingSchema,
    history: z.array(HistoryItemSchema),
    /** The earlier turns of the current thread, oldest first, shown above the current one. */
    earlier: z.optional(z.array(TaskRecordSchema)),
    current: z.optional(TaskRecordSchema),
    running: z.boolean(),
    /** Each provider's status, for the setup section (absent in the quick first init). */
    providers: z.optional(z.array(ProviderStatusSchema)),
    /** Whether the chosen model can answer; Run is disabled with `reason` when not. */
    usable: z.optional(z.object({ ok: z.boolean(), reason: z.optional(z.string()) })),
  }),
  /** The models and providers again (a key saved, a setting changed), leaving the conversation as it is. */
  z.object({
    type: z.literal('models'), models: z.array(ModelChoiceSchema), selected: z.optional(ModelChoiceSchema), providers: z.array(ProviderStatusSchema),
    usable: z.object({ ok: z.boolean(), reason: z.optional(z.string()) }),
  }),
  /** The history list again, when the store changed (a replay, another window's task, Clear). */
  z.object({ type: z.literal('history'), history: z.array(HistoryItemSchema) }),
  /** The browser session, so the live view never looks live when it is not. */
  z.object({ type: z.literal('session'), live: z.boolean(), label: z.string(), note: z.string(), url: z.optional(z.string()) }),
  /**
   * `append`: a follow-up, shown below the thread's earlier turns; `earlier`: those turns, for a thread opened from the
   * history; `recorded`: opened from the history to look at, not to continue; `notice`: a line above it, saying which.
   */
  z.object({
    type: z.literal('task'), record: TaskRecordSchema, running: z.boolean(), append: z.optional(z.boolean()), recorded: z.optional(z.boolean()),
    earlier: z.optional(z.array(TaskRecordSchema)), notice: z.optional(z.string()),
    /** A past task opened from the history: what can be done with it (Replay, Export, Save as Skill). */
    actions: z.optional(z.object({ id: z.string(), replay: z.boolean(), skill: z.boolean() })),
  }),
  /** A task the model never got (its request failed): back into the task box, unless the person typed another. */
  z.object({ type: z.literal('draft'), text: z.string() }),
  z.object({ type: z.literal('entry'), taskId: z.string(), entry: EntrySchema }),
  z.object({ type: z.literal('card'), taskId: z.string(), card: ToWebviewCard }),
  z.object({ type: z.literal('delta'), taskId: z.string(), text: z.string() }),
  z.object({ type: z.literal('tokens'), taskId: z.string(), estimate: z.number(), inputTokens: z.optional(z.number()) }),
  z.object({ type: z.literal('status'), text: z.string() }),
  z.object({ type: z.literal('running'), running: z.boolean() }),
  z.object({ type: z.literal('frame'), data: z.string(), width: z.number(), height: z.number() }),
  z.object({
    type: z.literal('highlight'),
    box: z.optional(z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })),
    label: z.optional(z.string()),
  }),
]);
export type ToWebviewMessage = z.infer<typeof ToWebview>;

export const FromWebview = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('run'), task: z.string().check(z.trim(), z.minLength(1), z.maxLength(10_000)) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newTask') }),
  /** From a recorded task back to the current thread. */
  z.object({ type: z.literal('backToChat') }),
  z.object({ type: z.literal('selectModel'), choice: ModelChoiceSchema }),
  z.object({ type: z.literal('selectMode'), mode: ModeSettingSchema }),
  z.object({ type: z.literal('openTask'), id: z.string() }),
  z.object({ type: z.literal('clearHistory') }),
  z.object({ type: z.literal('openLiveView') }),
  z.object({ type: z.literal('revealTask'), id: z.string() }),
  /** A button on an opened past task: replay it in the panel, export it, or save it as a skill. */
  z.object({ type: z.literal('taskAction'), action: z.enum(['replay', 'export', 'saveSkill']), id: z.string().check(z.maxLength(200)) }),
  z.object({ type: z.literal('setKey'), provider: z.enum(['anthropic', 'openai']) }),
  /** Model setup in the panel: each asks only for what is missing (a key, a base URL, a model from the endpoint). */
  z.object({ type: z.literal('setup'), action: z.enum(['use', 'setKey', 'setBaseURL', 'chooseModel']), provider: ProviderIdSchema }),
  /** Use a local server the setup found (Ollama, LM Studio): its URL as the OpenAI-compatible base URL. */
  z.object({ type: z.literal('useLocal'), baseURL: z.string().check(z.regex(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)) }),
  /** A model error's button; `task`: the task to send again on Retry. */
  z.object({ type: z.literal('modelFix'), label: z.enum(MODEL_FIXES), task: z.optional(z.string().check(z.maxLength(10_000))) }),
  /** A fix-it button on a card: the extension looks the action up by the card's error code. */
  z.object({ type: z.literal('fix'), code: z.string().check(z.maxLength(40)), label: z.enum(['Open Settings', 'How to Attach', 'Show Log']) }),
]);
export type FromWebviewMessage = z.infer<typeof FromWebview>;
