import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../errors';
import type { SessionManager } from '../../session/manager';
import type { Tab } from '../../session/tab';
import type { ElementHandle } from '../../snapshot/types';
import type { RunHooks } from '../../tools/runner';
import type { ToolContext, ToolDefinition } from '../../tools/types';
import type { ActionCache } from '../act/cache';
import type { AgentOutcome } from '../events';
import { promptForKey } from '../keys';
import { runAgent } from '../loop';
import { createProvider, listModelChoices, MissingKeyError, resolveMode, selectedChoice } from '../providers/factory';
import { readAgentSettings, saveMode, saveModelChoice } from '../settings';
import { chatHtml } from './html';
import { FromWebview, TaskRecordSchema, type FromWebviewMessage, type TaskRecord, type ToWebviewMessage } from './messages';
import { PickedModel } from './pickedModel';
import { locateBox, Screencast } from './screencast';
import { TaskTranscript } from './transcript';

function on(emitter: NodeJS.EventEmitter, event: string, fn: (...a: any[]) => void): vscode.Disposable {
  emitter.on(event, fn);
  return { dispose: () => emitter.off(event, fn) };
}

export const VIEW_ID = 'browserAgent.chat';
const HISTORY_KEY = 'browserAgent.agent.history';
const HISTORY_MAX = 50;

export interface ChatDeps {
  sessions: SessionManager;
  /** The registry's tools (read at run time, so tools registered later are included). */
  tools(): ToolDefinition[];
  /** Safety gate and audit observer for one run; `end` closes the run's audit task. */
  hooks(run: { goal: string; provider: string }): RunHooks & { end?(outcome: AgentOutcome): Promise<void> };
  /** How tools get their context; defaults to the session manager's live browser. */
  toolContext?(): Omit<ToolContext, 'signal'>;
  /** Snapshot-layer ref resolution, for highlighting the acted-on element in the live view. */
  resolveRef?(tab: Tab, ref: string): Promise<ElementHandle | undefined>;
  /** Where act remembers resolved actions (this workspace's action cache). */
  actionCache?(): ActionCache | undefined;
}

/** The chat panel: a webview view in the activity bar that runs our agent loop and shows it live. */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private transcript?: TaskTranscript;
  private controller?: AbortController;
  private running?: Promise<AgentOutcome>;
  private readonly screencast = new Screencast((m) => this.post(m));
  private readonly picked = new PickedModel();
  private listedModels = false;
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
      // A browser launched from elsewhere (command, Copilot tool) shows up in the live view too.
      on(this.deps.sessions, 'status', (st: { state: string }) => st.state === 'connected' && void this.followActiveTab()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('browserAgent.agent') && this.picked.settingsChanged()),
      view.onDidDispose(() => {
        this.view = undefined;
        void this.screencast.stop();
      }),
    );
  }

  private post(m: ToWebviewMessage): void {
    void this.view?.webview.postMessage(m);
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
        if (!this.controller) this.transcript = undefined;
        return this.sendInit();
      case 'selectModel':
        await this.picked.pick(m.choice, saveModelChoice(m.choice));
        return this.sendInit();
      case 'selectMode':
        await saveMode(m.mode);
        return this.sendInit();
      case 'openTask': {
        const rec = this.history().find((h) => h.id === m.id);
        if (rec) this.post({ type: 'task', record: rec, running: false });
        return;
      }
      case 'clearHistory':
        await this.context.globalState.update(HISTORY_KEY, []);
        return this.sendInit();
      case 'setKey':
        if (await promptForKey(this.context.secrets, m.provider)) await this.sendInit();
        return;
    }
  }

  private history(): TaskRecord[] {
    const raw = this.context.globalState.get<unknown[]>(HISTORY_KEY, []);
    return raw.flatMap((r) => {
      const p = TaskRecordSchema.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  async sendInit(): Promise<void> {
    // Listing VS Code's models can take seconds right after start-up: show the panel at once, then fill the picker.
    // Only until they have been listed once: later, the partial list would flip the picker to another model.
    if (!this.listedModels) this.post({ type: 'init', ...(await this.initState(false)) });
    this.post({ type: 'init', ...(await this.initState()) });
    void this.followActiveTab();
  }

  private async followActiveTab(): Promise<void> {
    const browser = this.deps.sessions.current;
    if (!browser || !this.view?.visible) return;
    try {
      await this.screencast.follow(await browser.activeTab());
    } catch {
      /* the live view is a nicety; the run goes on without it */
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
    const settings = await this.picked.apply(readAgentSettings);
    const transcript = (this.transcript = new TaskTranscript(randomUUID(), task, settings.provider));
    this.post({ type: 'task', record: transcript.record, running: true });
    const emit = (e: Parameters<TaskTranscript['apply']>[0]) => transcript.apply(e).forEach((m) => this.post(m));
    try {
      const provider = await createProvider(settings, this.context.secrets, (text) => this.post({ type: 'status', text }));
      transcript.record.provider = provider.label;
      const mode = resolveMode(settings.mode, provider);
      const ctx = this.deps.toolContext?.() ?? {
        sessions: this.deps.sessions,
        browser: () => this.deps.sessions.ensure(),
        tab: async () => (await this.deps.sessions.ensure()).activeTab(),
        settings: { allowedSchemes: [], downloadsDir: this.context.globalStorageUri.fsPath, maxWaitMs: 30_000 },
      };
      await this.deps.sessions.ensure().catch(() => undefined);
      void this.followActiveTab();
      const hooks = this.deps.hooks({ goal: task, provider: provider.label });
      this.running = runAgent({
        task, provider, mode, tools: this.deps.tools(), ctx, hooks, signal: controller.signal,
        maxSteps: settings.maxSteps, maxIdenticalCalls: settings.maxIdenticalCalls, actionCache: this.deps.actionCache?.(),
        onEvent: (e) => {
          emit(e);
          if (e.type === 'step-start') void this.highlight(e.input, e.tool);
          if (e.type === 'step-end') {
            this.post({ type: 'highlight' });
            void this.followActiveTab();
          }
        },
      });
      const outcome = await this.running;
      await hooks.end?.(outcome).catch(() => {});
      return outcome;
    } catch (e) {
      const text = errorMessage(e);
      emit({ type: 'done', outcome: { status: 'error', summary: text, steps: 0, tokens: 0 } });
      if (e instanceof MissingKeyError) {
        const which = settings.provider === 'anthropic' ? 'anthropic' : 'openai';
        void vscode.window.showErrorMessage(text, ...(settings.provider === 'vscode-lm' ? [] : ['Set API Key'])).then((b) => {
          if (b) void promptForKey(this.context.secrets, which);
        });
      }
      return undefined;
    } finally {
      this.controller = undefined;
      this.running = undefined;
      this.post({ type: 'running', running: false });
      await this.saveToHistory(transcript);
    }
  }

  private async highlight(input: unknown, tool: string): Promise<void> {
    const tab = this.screencast.target;
    if (!tab) return;
    const box = await locateBox(tab, input, this.deps.resolveRef).catch(() => undefined);
    if (box) this.post({ type: 'highlight', box, label: tool });
  }

  private async saveToHistory(t: TaskTranscript): Promise<void> {
    const list = [t.persistable(), ...this.history().filter((h) => h.id !== t.record.id)].slice(0, HISTORY_MAX);
    await this.context.globalState.update(HISTORY_KEY, list);
    this.post({ type: 'init', ...(await this.initState()) });
  }

  private async initState(withVsCodeModels = true) {
    const s = this.picked.applyNow(readAgentSettings());
    const models = await listModelChoices(s, withVsCodeModels);
    if (withVsCodeModels) this.listedModels = true;
    return {
      models,
      selected: selectedChoice(s, models),
      mode: s.mode,
      history: this.history().map((h) => ({ id: h.id, task: h.task, status: h.status, startedAt: h.startedAt })),
      current: this.transcript?.record,
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
