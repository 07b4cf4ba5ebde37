import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errors';
import type { SessionManager } from '../../session/manager';
import type { Tab } from '../../session/tab';
import type { ElementHandle } from '../../snapshot/types';
import type { RunHooks } from '../../runtime/runner';
import type { ToolContext, ToolDefinition } from '../../contract/types';
import type { ActionCache } from '../../agent/act/cache';
import type { AgentOutcome } from '../../agent/events';
import type { AgentMessage } from '../../agent/types';
import { promptForKey } from '../agent/keys';
import { runAgent } from '../../agent/loop';
import { createProvider, listModelChoices, MissingKeyError, resolveMode, selectedChoice } from '../agent/factory';
import { readAgentSettings, saveMode, saveModelChoice, type AgentSettings } from '../agent/settings';
import { chooseModel, setBaseURL, useProvider } from '../agent/modelSetup';
import { endpointOf, providerStatuses } from '../agent/modelStatus';
import { describeModelError, type ModelFix, type ModelProblem } from '../../agent/providers/modelError';
import { LOCAL_SERVERS } from '../../agent/providers/probe';
import type { ChatProvider } from '../../agent/types';
import type { ReplayReport } from '../../audit/replay';
import type { ReplayView } from '../audit/register';
import { chatHtml } from './html';
import { fixActionsForCode } from '../failureText';
import { liveState } from '../liveState';
import { runFixAction } from '../sessionCommands';
import type { ThreadRecord } from './chatHistory';
import { ChatThread, resumedNotice } from './chatThread';
import { FromWebview, TaskRecordSchema, type FromWebviewMessage, type HistoryItem, type TaskRecord, type ToWebviewMessage } from './messages';
import { PickedModel } from './pickedModel';
import { locateBox, Screencast, type Box } from './screencast';
import { taskBackInBox } from './taskBack';
import { TaskTranscript } from './transcript';
import { ignore } from '../../base/ignore';

function on(emitter: NodeJS.EventEmitter, event: string, fn: (...a: any[]) => void): vscode.Disposable {
  emitter.on(event, fn);
  return { dispose: () => emitter.off(event, fn) };
}

export const VIEW_ID = 'browserAgent.chat';
/** Where the chat kept its own history before there was one store; read once to import it. */
export const LEGACY_HISTORY_KEY = 'browserAgent.agent.history';

/** The one task history (the audit log's tasks), as the panel uses it. */
export interface ChatHistoryStore {
  /** One row per thread. */
  list(): Promise<HistoryItem[]>;
  /** A thread whole, by its id (its first task's). */
  open(id: string): Promise<ThreadRecord | undefined>;
  /** Asks the person, then deletes; resolves to how many were deleted (undefined when they said no). */
  clear(): Promise<number | undefined>;
  /** Fires when the store changed (a replay, another window's task): the list is read again. */
  onDidChange?: vscode.Event<void>;
}

/** Old globalState records, validated (for the one-time import). */
export function legacyHistory(raw: unknown): TaskRecord[] {
  return (Array.isArray(raw) ? raw : []).flatMap((r) => {
    const p = TaskRecordSchema.safeParse(r);
    return p.success ? [p.data] : [];
  });
}

export interface ChatDeps {
  sessions: SessionManager;
  /** The registry's tools (read at run time, so tools registered later are included). */
  tools(): ToolDefinition[];
  /**
   * Safety gate and audit observer for one run (`thread`: the thread a follow-up continues); `end` closes the run's
   * audit task and keeps what was seen and the model's side of the thread.
   */
  hooks(run: { goal: string; provider: string; thread?: string }): RunHooks & {
    taskId?: string;
    end?(outcome: AgentOutcome, record: TaskRecord, conversation: readonly AgentMessage[]): Promise<void>;
  };
  /** The one task history; without it the panel keeps no history. */
  history?: ChatHistoryStore;
  /** How tools get their context; defaults to the session manager's live browser. */
  toolContext?(): Omit<ToolContext, 'signal'>;
  /** Snapshot-layer ref resolution, for highlighting the acted-on element in the live view. */
  resolveRef?(tab: Tab, ref: string): Promise<ElementHandle | undefined>;
  /** Where act remembers resolved actions (this workspace's action cache). */
  actionCache?(): ActionCache | undefined;
  /** The Browser Agent log (Show Log): a model error's full text goes there. */
  log?(line: string): void;
  /** Recorded tasks: a thread's folders (oldest first; one for a task that is no thread), and its replay shown in the panel. */
  recorded?: {
    threadDirs(id: string): Promise<string[]>;
    replay(dirs: readonly string[], view: ReplayView): Promise<ReplayReport | undefined>;
  };
  /** The live view in an editor tab: a task opens it where the page can be seen (see `watch`). */
  liveView?: { readonly isOpen: boolean; show(preserveFocus?: boolean): void; onDidClose: vscode.Event<void>; highlight?(box?: Box, label?: string): void };
}

/** Whether a task opens the live view in the editor area by itself (off once the person closes it during a task). */
export const LIVE_VIEW_AUTO_KEY = 'browserAgent.liveView.openWithTask';

/** A provider that keeps the last error its requests threw and counts the tries, so the panel can describe it. */
function watched(p: ChatProvider, onAnswer: () => void): ChatProvider & { lastError?: unknown } {
  const w: ChatProvider & { lastError?: unknown } = {
    id: p.id, label: p.label, capabilities: p.capabilities,
    async send(req) {
      try {
        const r = await p.send(req);
        w.lastError = undefined;
        onAnswer();
        return r;
      } catch (e) {
        w.lastError = e;
        throw e;
      }
    },
  };
  return w;
}

/** The chat panel: a webview view in the activity bar that runs our agent loop and shows it live. */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private transcript?: TaskTranscript;
  /** The conversation in the panel: the next message continues it. */
  private thread?: ChatThread;
  /** A task opened from the history to look at (not the thread): the live view says it shows the browser now. */
  private viewingHistory = false;
  private controller?: AbortController;
  private running?: Promise<AgentOutcome>;
  private readonly screencast = new Screencast((m) => this.post(m));
  private readonly picked = new PickedModel();
  private listedModels = false;
  private refreshTimer?: NodeJS.Timeout;
  private refreshSeq = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: ChatDeps,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'media'), vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'media')],
    };
    view.webview.html = chatHtml(view.webview, this.context.extensionUri, vscode.Uri.joinPath);
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw) => this.receive(raw)),
      view.onDidChangeVisibility(() => void (view.visible ? this.followActiveTab() : this.screencast.stop())),
      // A browser launched from elsewhere (command, Copilot tool) shows up in the live view too; a closed or
      // lost one is said so, so a stale picture never looks live.
      on(this.deps.sessions, 'status', (st: { state: string }) => {
        this.postSession();
        if (st.state === 'connected') void this.followActiveTab();
        else void this.screencast.stop();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('browserAgent.agent')) return;
        this.picked.settingsChanged();
        this.refreshSoon();
      }),
      // A key saved from the palette or the walkthrough: the setup and Run say so at once.
      this.context.secrets.onDidChange(() => this.refreshSoon()),
      { dispose: () => clearTimeout(this.refreshTimer) },
      // One history: what Task History shows, the chat's list shows too, without reopening the panel.
      ...(this.deps.history?.onDidChange ? [this.deps.history.onDidChange(() => void this.history().then((history) => this.post({ type: 'history', history })))] : []),
      // Closed while a task runs: the person does not want it; remembered, until they open it again.
      ...(this.deps.liveView ? [this.deps.liveView.onDidClose(() => void (this.controller && this.context.globalState.update(LIVE_VIEW_AUTO_KEY, false)))] : []),
      view.onDidDispose(() => {
        this.view = undefined;
        void this.screencast.stop();
      }),
    );
  }

  private post(m: ToWebviewMessage): void {
    void this.view?.webview.postMessage(m);
  }

  private postSession(): void {
    const s = liveState(this.deps.sessions.status);
    this.post({ type: 'session', ...s, ...(this.viewingHistory && s.live ? { label: s.label.replace(/^Live\b/, 'Live now'), note: 'You are viewing a recorded task; the live view shows the browser now.' } : {}) });
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = FromWebview.safeParse(raw);
    if (!parsed.success) return; // not from our script: ignored, never acted on
    const m: FromWebviewMessage = parsed.data;
    switch (m.type) {
      case 'ready':
        return this.sendInit();
      case 'run':
        void this.runTask(m.task);
        return;
      case 'stop':
        return this.stop();
      case 'newTask':
        // The thread is in the history already (each run is saved as it ends); a running one is never dropped.
        if (!this.controller) {
          this.thread = undefined;
          this.transcript = undefined;
          this.viewingHistory = false;
        }
        return this.sendInit();
      case 'backToChat':
        return this.sendInit();
      case 'selectModel': {
        await this.picked.pick(m.choice, saveModelChoice(m.choice));
        // A provider that is not set up yet asks for what it is missing (a key, a base URL) right away.
        const lm = m.choice.provider === 'vscode-lm' ? await vscode.lm.selectChatModels().then((x) => x, () => []) : [];
        const status = (await providerStatuses(this.picked.applyNow(readAgentSettings()), this.context.secrets, lm).catch((e) => ignore(e, 'an unread status asks for no setup', []))).find((p) => p.provider === m.choice.provider);
        if (status && !status.ready) await useProvider(m.choice.provider, this.context.secrets);
        return this.sendInit();
      }
      case 'selectMode':
        await saveMode(m.mode);
        return this.sendInit();
      case 'openTask':
        return this.openThread(m.id);
      case 'clearHistory':
        await this.deps.history?.clear();
        return this.sendInit();
      case 'openLiveView':
        await this.context.globalState.update(LIVE_VIEW_AUTO_KEY, true);
        await vscode.commands.executeCommand('browserAgent.openLiveView');
        return;
      case 'revealTask':
        await vscode.commands.executeCommand('browserAgent.audit.revealTask', m.id);
        return;
      case 'fix': {
        const action = fixActionsForCode(m.code).find((a) => a.label === m.label);
        if (action) await runFixAction(action);
        return;
      }
      case 'setKey':
        if (await promptForKey(this.context.secrets, m.provider)) await this.sendInit();
        return;
      case 'setup':
        await this.setup(m.action, m.provider);
        return;
      case 'useLocal':
        // Only a server the setup itself lists: the webview cannot point the model at an address of its choosing.
        if (LOCAL_SERVERS.some((l) => l.baseURL === m.baseURL)) {
          await vscode.workspace.getConfiguration('browserAgent.agent').update('openai.baseURL', m.baseURL, vscode.ConfigurationTarget.Global);
          await useProvider('openai', this.context.secrets);
        }
        return this.sendInit();
      case 'modelFix':
        return this.modelFix(m.label, m.task);
      case 'taskAction':
        return this.taskAction(m.action, m.id);
    }
  }

  private async setup(action: 'use' | 'setKey' | 'setBaseURL' | 'chooseModel', provider: AgentSettings['provider']): Promise<void> {
    const secrets = this.context.secrets;
    if (action === 'use') await useProvider(provider, secrets);
    else if (action === 'setKey' && provider !== 'vscode-lm') await promptForKey(secrets, provider);
    else if (action === 'setBaseURL') await setBaseURL();
    else if (action === 'chooseModel') await chooseModel(provider, secrets);
    this.picked.settingsChanged();
    await this.sendInit();
  }

  /**
   * Replay, Export or Save as Skill on a past thread opened in the panel (`id`: the thread's). Replay and Export take
   * every turn in order; Save as Skill the newest turn (the run that worked).
   */
  private async taskAction(action: 'replay' | 'export' | 'saveSkill', id: string): Promise<void> {
    const dirs = (await this.deps.recorded?.threadDirs(id).catch((e) => ignore(e, 'an unreadable history: said below', [] as string[]))) ?? [];
    if (!dirs.length) return void vscode.window.showWarningMessage('Browser Agent: that task is no longer in the history.');
    if (action === 'export') return void (await vscode.commands.executeCommand('browserAgent.audit.export', { task: { dirs } }));
    if (action === 'saveSkill') return void (await vscode.commands.executeCommand('browserAgent.skills.saveFromTask', { task: { dir: dirs.at(-1) } }));
    await this.replayInPanel(dirs);
  }

  /**
   * A replay in the panel, as a task is: a card per step as it runs, the progress in the status line, Stop, and a
   * result whose count is the one the confirmation named.
   */
  private async replayInPanel(dirs: readonly string[]): Promise<void> {
    if (this.controller) return void vscode.window.showWarningMessage('Browser Agent is already running a task. Stop it first.');
    const controller = (this.controller = new AbortController());
    void vscode.commands.executeCommand('setContext', 'browserAgent.agentRunning', true);
    let transcript: TaskTranscript | undefined;
    let planned = 0;
    let ran = 0;
    const post = (e: Parameters<TaskTranscript['apply']>[0]) => transcript?.apply(e).forEach((m) => this.post(m));
    try {
      const report = await this.deps.recorded!.replay(dirs, {
        signal: controller.signal,
        start: ({ goal, run, skipped, replayTaskId }) => {
          planned = run;
          transcript = this.transcript = new TaskTranscript(replayTaskId, `Replay: ${goal}`, 'Replay (no model)');
          this.viewingHistory = true;
          const note = `A replay of a recorded task, without a model: ${run} step${run === 1 ? '' : 's'} to re-run${skipped ? `, ${skipped} skipped (they only read the page or failed when recorded)` : ''}.`;
          this.post({ type: 'task', record: transcript.record, running: true, recorded: true, notice: note });
          void this.deps.sessions.ensure().then(() => this.followActiveTab(), () => undefined);
          this.post({ type: 'status', text: `Replaying step 1 of ${run}…` });
        },
        step: (e, rec) => {
          if (e.status === 'skipped' || !e.step) return;
          if (e.status === 'ran') ran++;
          const target = rec?.target && (rec.target.role || rec.target.name) ? `${rec.target.role ?? 'element'}${rec.target.name ? ` "${rec.target.name}"` : ''}` : undefined;
          const line = e.status === 'ran' ? rec?.action ?? `Step ${e.step} ran again.` : (e.note ?? 'stopped');
          post({ type: 'step-end', id: `replay-${e.step}`, step: e.step, tool: e.tool, input: rec?.input, target, ok: e.status === 'ran', summary: line, output: line, durationMs: rec?.durationMs ?? 0 });
          if (e.status === 'ran' && ran < planned) this.post({ type: 'status', text: `Replaying step ${ran + 1} of ${planned}…` });
        },
      });
      if (!report || !transcript) return;
      const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;
      const summary = report.ok ? `Replayed ${ran} of ${steps(planned)}.` : `Replay stopped after ${ran} of ${steps(planned)}. ${report.reason ?? ''}`.trim();
      post({ type: 'done', outcome: { status: report.ok ? 'success' : report.code === 'CANCELLED' ? 'stopped' : 'failure', summary, steps: ran, tokens: 0 } });
    } catch (e) {
      void vscode.window.showErrorMessage(`Browser Agent: replay failed: ${errorMessage(e)}`);
    } finally {
      this.controller = undefined;
      void vscode.commands.executeCommand('setContext', 'browserAgent.agentRunning', false);
      this.post({ type: 'running', running: false });
      this.post({ type: 'history', history: await this.history() });
    }
  }

  /** A model error's button. Retry sends the task again (it is also back in the task box). */
  private async modelFix(label: ModelFix, task?: string): Promise<void> {
    const provider = this.picked.applyNow(readAgentSettings()).provider;
    switch (label) {
      case 'Retry':
        if (task) void this.runTask(task);
        return;
      case 'Set API Key':
        if (provider !== 'vscode-lm') await promptForKey(this.context.secrets, provider);
        return this.sendInit();
      case 'Choose Model':
        await chooseModel(provider, this.context.secrets);
        return this.sendInit();
      case 'Set Base URL':
        if (provider === 'openai') await setBaseURL();
        else await vscode.commands.executeCommand('workbench.action.openSettings', `browserAgent.agent.${provider}.baseURL`);
        return this.sendInit();
      case 'Open Settings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'browserAgent.agent');
        return;
      case 'Show Log':
        await vscode.commands.executeCommand('browserAgent.showLog');
        return;
    }
  }

  private async history(): Promise<HistoryItem[]> {
    return (await this.deps.history?.list().catch((e) => ignore(e, 'no history read: none listed', []))) ?? [];
  }

  /**
   * A thread from the history, whole. A chat thread becomes the panel's thread (the next message continues it);
   * a task from Copilot, MCP or a replay, or any while a task runs, is shown to look at.
   */
  private async openThread(id: string): Promise<void> {
    const rec = await this.deps.history?.open(id).catch((e) => ignore(e, 'a thread that cannot be read is not opened'));
    const last = rec?.turns.at(-1);
    if (!rec || !last) return void vscode.window.showWarningMessage('Browser Agent: that task is no longer in the history.');
    const resumed = this.controller ? undefined : ChatThread.resume(rec);
    // Replay and export the thread whole; save as a skill its newest turn, when it worked and was no replay.
    const actions = this.deps.recorded ? { id: rec.id, replay: true, skill: last.status === 'success' && !/^Replay: /.test(last.task) } : undefined;
    if (resumed) {
      this.thread = resumed;
      this.transcript = undefined;
      this.viewingHistory = false;
      this.post({ type: 'task', record: last, earlier: resumed.earlier, running: false, notice: resumedNotice(rec), actions });
    } else {
      this.viewingHistory = true;
      this.post({ type: 'task', record: last, earlier: rec.turns.slice(0, -1), running: false, recorded: true, actions });
    }
    this.postSession();
  }

  async sendInit(): Promise<void> {
    // Listing VS Code's models can take seconds right after start-up: show the panel at once, then fill the picker.
    // Only until they have been listed once: later, the partial list would flip the picker to another model.
    if (!this.listedModels) this.post({ type: 'init', ...(await this.initState(false)) });
    ++this.refreshSeq; // an earlier refresh still reading must not post over this init
    this.post({ type: 'init', ...(await this.initState()) });
    // The webview leaves a recorded task on init (it shows the current conversation): so does the live badge.
    this.viewingHistory = false;
    this.postSession();
    void this.followActiveTab();
  }

  private async followActiveTab(): Promise<void> {
    const browser = this.deps.sessions.current;
    if (!browser || !this.view?.visible) return;
    try {
      await this.screencast.follow(await browser.activeTab());
    } catch (e) {
      ignore(e, 'the live view is a nicety; the run goes on without it');
    }
  }

  stop(): void {
    this.controller?.abort();
  }

  /** Runs one task (also the entry point for tests and other commands). Resolves when it ends. */
  async runTask(task: string): Promise<AgentOutcome | undefined> {
    if (this.controller) {
      void vscode.window.showWarningMessage('Browser Agent is already running a task. Stop it first.');
      return undefined;
    }
    const controller = (this.controller = new AbortController());
    void vscode.commands.executeCommand('setContext', 'browserAgent.agentRunning', true);
    const settings = await this.picked.apply(readAgentSettings);
    // A message continues the thread in the panel; typed under a recorded task, it starts a new one.
    const continuing = this.viewingHistory ? undefined : this.thread;
    // One audit task per run, opened first, so a run that fails to start is in the history too.
    const hooks = this.deps.hooks({ goal: task, provider: settings.provider, ...(continuing ? { thread: continuing.id } : {}) });
    this.viewingHistory = false;
    const transcript = (this.transcript = new TaskTranscript(hooks.taskId ?? randomUUID(), task, settings.provider));
    const thread = (this.thread = continuing ?? new ChatThread(transcript.record.id));
    thread.add(transcript.record);
    this.post({ type: 'task', record: transcript.record, running: true, append: !!continuing });
    this.postSession();
    let outcome: AgentOutcome | undefined;
    // The result waits until the run's end is recorded, so the Task History never says Running after the panel says how it ended.
    const result: ToWebviewMessage[] = [];
    const emit = (e: Parameters<TaskTranscript['apply']>[0]) => transcript.apply(e).forEach((m) => (e.type === 'done' ? result.push(m) : this.post(m)));
    let tries = 1;
    let provider: ReturnType<typeof watched> | undefined;
    let watching = false;
    try {
      provider = watched(await createProvider(settings, this.context.secrets, (text) => {
        tries++;
        this.post({ type: 'status', text });
      }), () => (tries = 1));
      transcript.record.provider = provider.label;
      const mode = resolveMode(settings.mode, provider);
      const ctx = this.deps.toolContext?.() ?? {
        sessions: this.deps.sessions,
        browser: () => this.deps.sessions.ensure(),
        tab: async () => (await this.deps.sessions.ensure()).activeTab(),
        settings: { allowedSchemes: [], downloadsDir: this.context.globalStorageUri.fsPath, maxWaitMs: 30_000 },
      };
      await this.deps.sessions.ensure().catch((e) => ignore(e, 'the browser starts with the first tool call if not now'));
      void this.followActiveTab();
      this.running = runAgent({
        task, earlier: thread.conversation, provider, mode, tools: this.deps.tools(), ctx, hooks, signal: controller.signal,
        maxSteps: settings.maxSteps, maxIdenticalCalls: settings.maxIdenticalCalls, actionCache: this.deps.actionCache?.(),
        onEvent: (e) => {
          if (e.type === 'done' && e.outcome.status === 'error' && provider?.lastError !== undefined) return; // shown with its fixes below
          emit(e);
          if (e.type === 'step-start' && !watching && e.tool.startsWith('browser_')) {
            watching = true;
            this.watch();
          }
          if (e.type === 'step-start') void this.highlight(e.input, e.tool);
          if (e.type === 'step-end') {
            this.post({ type: 'highlight' });
            this.deps.liveView?.highlight?.();
            void this.followActiveTab();
          }
        },
      });
      outcome = await this.running;
      if (outcome.conversation) thread.conversation = outcome.conversation;
      // A model error ends the run inside the loop: its result names the endpoint and offers the fix.
      if (outcome.status === 'error' && provider.lastError !== undefined) result.push(...this.problemResult(transcript, this.problem(provider.lastError, settings, tries, provider.label), outcome));
      return outcome;
    } catch (e) {
      const problem: ModelProblem = e instanceof MissingKeyError
        ? { message: e.message, fixes: settings.provider === 'vscode-lm' ? ['Choose Model', 'Retry'] : ['Set API Key', 'Retry'] }
        : this.problem(e, settings, tries, provider?.label);
      outcome = { status: 'error', summary: problem.message, steps: 0, tokens: 0 };
      result.push(...this.problemResult(transcript, problem, outcome));
      return undefined;
    } finally {
      await hooks.end?.(outcome ?? { status: 'error', summary: 'The run ended unexpectedly.', steps: 0, tokens: 0 }, transcript.persistable(), thread.conversation).catch((e) => ignore(e, 'recording the end is best effort; the panel moves on'));
      this.controller = undefined;
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', 'browserAgent.agentRunning', false);
      result.forEach((m) => this.post(m));
      this.post({ type: 'running', running: false });
      // Not done (a model error at any step, Stop, a crash, a refusal): the task goes back into the box to send again.
      if (taskBackInBox(outcome)) this.post({ type: 'draft', text: task });
      this.post({ type: 'init', ...(await this.initState()) });
    }
  }

  private problem(e: unknown, settings: AgentSettings, tries: number, label?: string): ModelProblem {
    const problem = describeModelError(e, endpointOf(settings, label), tries);
    this.deps.log?.(`Model error: ${problem.message}${e instanceof Error && e.message !== problem.message ? ` (${e.message})` : ''}`);
    return problem;
  }

  /** A model error as the run's result: what happened, where, and the buttons that fix it (no toast). */
  private problemResult(transcript: TaskTranscript, problem: ModelProblem, outcome: AgentOutcome): ToWebviewMessage[] {
    return transcript.apply({ type: 'done', outcome: { ...outcome, summary: problem.message } }).map((m) => {
      if (m.type === 'entry' && m.entry.kind === 'result') m.entry.fixes = problem.fixes;
      return m;
    });
  }

  /**
   * The first browser step of a task: the page where it can be seen, so a confirmation is never answered blind. With
   * the editor area empty (nothing of the person's to cover) the live view opens there, beside the chat, keeping the
   * focus where it was; the panel's own live view starts open too (media/chat.ts).
   */
  private watch(): void {
    const live = this.deps.liveView;
    const empty = vscode.window.tabGroups.all.every((g) => g.tabs.length === 0);
    if (live && !live.isOpen && empty && this.context.globalState.get(LIVE_VIEW_AUTO_KEY, true)) live.show(true);
  }

  /** The acted element outlined in both live views (the panel's and the editor-area one), wherever the page is watched. */
  private async highlight(input: unknown, tool: string): Promise<void> {
    const tab = this.screencast.target ?? (await this.deps.sessions.current?.activeTab().catch((e) => ignore(e, 'no tab: nothing highlighted')));
    if (!tab) return;
    const box = await locateBox(tab, input, this.deps.resolveRef).catch((e) => ignore(e, 'no box: nothing highlighted'));
    if (!box) return;
    this.post({ type: 'highlight', box, label: tool });
    this.deps.liveView?.highlight?.(box, tool);
  }

  /**
   * After settings or keys changed: once they have settled (a pick writes the provider and the model one after the
   * other), and only the newest read is shown, so a slow earlier read never puts back a model no longer chosen.
   */
  private refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refreshModels(), 300);
  }

  /** The picker, the setup and Run's state again, without touching the conversation. */
  private async refreshModels(): Promise<void> {
    if (!this.view) return;
    const seq = ++this.refreshSeq;
    const st = await this.initState();
    if (seq !== this.refreshSeq) return;
    if (st.providers && st.usable) this.post({ type: 'models', models: st.models, selected: st.selected, providers: st.providers, usable: st.usable });
  }

  private async initState(withVsCodeModels = true) {
    const s = this.picked.applyNow(readAgentSettings());
    const lm = withVsCodeModels ? await vscode.lm.selectChatModels().then((m) => m, () => []) : [];
    const models = await listModelChoices(s, lm);
    if (withVsCodeModels) this.listedModels = true;
    // Each provider's status (keys, endpoints answering, local servers): only in the full init, it asks the network.
    const providers = withVsCodeModels ? await providerStatuses(s, this.context.secrets, lm).catch((e) => ignore(e, 'unread statuses: the picker shows none')) : undefined;
    const chosen = providers?.find((p) => p.provider === s.provider);
    return {
      models,
      selected: selectedChoice(s, models),
      ...(providers ? { providers } : {}),
      ...(chosen ? { usable: chosen.ready ? { ok: true } : { ok: false, reason: `${chosen.title}: ${chosen.detail}` } } : {}),
      mode: s.mode,
      history: await this.history(),
      earlier: this.thread?.earlier,
      current: this.thread?.current,
      running: !!this.controller,
    };
  }

  /** For tests and the e2e harness: the visible record of the current task. */
  get current(): TaskRecord | undefined {
    return this.transcript?.record;
  }

  dispose(): void {
    this.controller?.abort();
    void this.screencast.stop();
    this.disposables.forEach((d) => d.dispose());
  }
}
