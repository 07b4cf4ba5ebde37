// The chat webview. Talks to the extension only through validated messages (src/vscode/chat/messages.ts);
// every piece of model or page text is set as textContent, never as HTML.
import './zodConfig';
import { FromWebview, ToWebview, type Card, type Entry, type FromWebviewMessage, type HistoryItem, type ModelChoice, type ProviderStatus, type TaskRecord, type ToWebviewMessage } from '../src/vscode/chat/messages';
import { outcomeLabel, outcomeTone } from '../src/audit/words';
import { unfence } from '../src/base/unfence';
import { noteFrameSize, placeHighlight } from './highlight';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): any; setState(s: unknown): void };
const vscode = acquireVsCodeApi();

function send(m: FromWebviewMessage): void {
  vscode.postMessage(FromWebview.parse(m));
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string | undefined>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) if (c !== undefined) el.append(c);
  return el;
}
const icon = (name: string, label?: string) => h('span', { class: `codicon codicon-${name}`, ...(label ? { 'aria-label': label, role: 'img' } : { 'aria-hidden': 'true' }) });

// ---- layout -------------------------------------------------------------------------------
const app = document.getElementById('app')!;
// Never an empty box: the models are listed a moment after the panel opens.
const modelSelect = h('select', { id: 'model', 'aria-label': 'Model', title: 'Model' }, h('option', { value: '', disabled: '' }, 'Loading models…'));
// How the model sees the page, in words a person knows (the values are the setting's: auto, dom, hybrid).
const modeSelect = h('select', { id: 'mode', 'aria-label': 'How the model sees the page', title: 'How the model sees the page: Text reads it as text; Vision adds screenshots (models that take images); Auto picks Vision when the model can' },
  h('option', { value: 'auto' }, 'Auto'), h('option', { value: 'dom' }, 'Text'), h('option', { value: 'hybrid' }, 'Vision'));
// Labelled, not an icon: starting clean is a choice the person must see (a message otherwise continues the thread).
const newBtn = h('button', { class: 'new-task', id: 'new-task', title: 'Start a new conversation (this one stays in the history)' }, icon('add'), 'New Task');
const historyBtn = h('button', { class: 'icon', id: 'history-toggle', title: 'Task history', 'aria-label': 'Task history', 'aria-expanded': 'false' }, icon('history'));
const setupBtn = h('button', { class: 'icon', id: 'setup-toggle', title: 'Set up a model (providers, keys, endpoints)', 'aria-label': 'Set up a model', 'aria-expanded': 'false' }, icon('plug'));
const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat options' }, newBtn, modelSelect, modeSelect, setupBtn, historyBtn);

// Model setup: each provider with its status and the buttons that give it what it is missing.
const setupList = h('div', { class: 'setup-list' });
const setupPanel = h('section', { class: 'setup', id: 'setup', hidden: '', 'aria-label': 'Model setup' },
  h('h2', {}, 'Model'), h('p', { class: 'setup-intro' }, 'Choose where the agent\'s model comes from. Keys are kept in VS Code\'s secret storage.'), setupList);

const frameImg = h('img', { id: 'live-frame', alt: 'Live view of the browser page' });
const highlight = h('div', { class: 'highlight', hidden: '' });
const liveEmpty = h('div', { class: 'live-empty' }, 'The page appears here once a browser is running.');
const liveState = h('span', { class: 'live-state', id: 'live-state', role: 'status' }, 'No browser');
const liveUrl = h('span', { class: 'live-url', id: 'live-url' });
const popOut = h('button', { class: 'icon', id: 'live-pop-out', title: 'Open the live view in an editor tab', 'aria-label': 'Open the live view in an editor tab' }, icon('link-external'));
const live = h('details', { class: 'live', id: 'live' }, h('summary', { title: 'Live view of the browser' }, icon('eye'), liveState, liveUrl, popOut), h('div', { class: 'live-stage' }, liveEmpty, frameImg, highlight));

const historyList = h('ul', { class: 'history-list', 'aria-label': 'Task history' });
const clearHistory = h('button', { class: 'link', id: 'clear-history', title: 'Asks before deleting' }, 'Clear history…');
const historyPanel = h('section', { class: 'history', hidden: '', 'aria-label': 'Task history' }, h('h2', { title: 'The same tasks as the Task History view' }, 'Recent tasks'), historyList, clearHistory);

const log = h('div', { class: 'log', id: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
const working = h('div', { class: 'working', id: 'working', hidden: '', role: 'status' }, icon('loading codicon-modifier-spin'), h('span', {}, ' Working…'));
const statusLine = h('div', { class: 'status', role: 'status' });
const tokens = h('span', { class: 'tokens', title: 'Estimated tokens in the model context' });
const FIRST_PLACEHOLDER = 'Describe a task, e.g. "find the cheapest flight from Paris to Rome next Friday and stop before paying"';
const FOLLOW_UP_PLACEHOLDER = 'Ask a follow-up (the agent remembers this conversation), or start a New Task';
const input = h('textarea', { id: 'task', rows: '3', placeholder: FIRST_PLACEHOLDER, 'aria-label': 'Task' });
const runBtn = h('button', { class: 'primary', id: 'run', title: 'Run (Enter)' }, icon('send'), ' Run');
const stopBtn = h('button', { class: 'danger', id: 'stop', title: 'Stop (Escape)', hidden: '' }, icon('debug-stop'), ' Stop');
// Why Run is disabled (no model can answer), with the way to fix it.
const runReasonText = h('span', { class: 'reason-text' });
const runReason = h('div', { class: 'run-reason', id: 'run-reason', hidden: '', role: 'status' }, icon('warning'), runReasonText,
  Object.assign(h('button', { class: 'link', id: 'run-reason-setup' }, 'Set up a model'), { onclick: () => showSetup(true) }));
const composer = h('div', { class: 'composer' }, runReason, input, h('div', { class: 'composer-row' }, tokens, statusLine, stopBtn, runBtn));

app.append(toolbar, setupPanel, historyPanel, live, log, composer);

// ---- state --------------------------------------------------------------------------------
let models: ModelChoice[] = [];
let running = false;
let taskId: string | undefined;
let streamingEl: HTMLElement | undefined;
/** Card elements by task and call id: models reuse call ids across tasks (scripted and local ones do). */
const cardEls = new Map<string, HTMLDetailsElement>();
const cardKey = (task: string | undefined, id: string) => `${task ?? ''}\u0000${id}`;
const saved = vscode.getState() ?? {};
input.value = saved.draft ?? '';
// The live view starts open (the person watches what the agent does) and remembers the person's own choice: a view
// they closed stays closed, also when a task starts.
live.open = saved.liveOpen ?? true;
live.addEventListener('toggle', () => vscode.setState({ ...vscode.getState(), liveOpen: live.open }));
popOut.addEventListener('click', (e) => {
  e.preventDefault();
  send({ type: 'openLiveView' });
});
let sessionLive = false;
let recorded = false;
/** Whether the chosen model can answer (unknown until the extension has checked: Run stays enabled). */
let usable: { ok: boolean; reason?: string } = { ok: true };
/** Each task's text by id, for a model error's Retry. */
const taskTexts = new Map<string, string>();

function setRunning(r: boolean) {
  running = r;
  runBtn.disabled = !usable.ok;
  runBtn.title = usable.ok ? 'Run (Enter)' : `No model can answer: ${usable.reason ?? 'set one up'}`;
  runReason.hidden = usable.ok || r;
  runReasonText.textContent = ` ${usable.reason ?? 'No model can answer.'} `;
  runBtn.hidden = r;
  stopBtn.hidden = !r;
  input.disabled = r;
  newBtn.disabled = r;
  newBtn.title = r ? 'Stop the running task to start a new one' : 'Start a new conversation (this one stays in the history)';
  // A thread on screen (not a recorded task): the next message continues it.
  input.placeholder = taskId && !recorded ? FOLLOW_UP_PLACEHOLDER : FIRST_PLACEHOLDER;
  if (!r) {
    statusLine.textContent = '';
    highlight.hidden = true;
  }
  updateWorking();
}

/** "Working…" while the run waits for the model (no card running, no text streaming). */
function updateWorking() {
  const busy = running && !log.querySelector('.card.running') && !streamingEl;
  working.hidden = !busy;
  if (busy) {
    (working.lastChild as HTMLElement).textContent = ` ${statusLine.textContent || 'Working…'}`;
    log.append(working);
  }
}

function scrollDown() {
  updateWorking();
  log.scrollTop = log.scrollHeight;
}

function fmtMs(ms?: number) {
  return ms === undefined ? '' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The card's second line: what came back, or for a failure its message (the full text in the tooltip). */
function resultLine(card: Card): HTMLElement {
  const text = card.state === 'running' ? '' : card.state === 'error' ? card.message ?? card.summary ?? card.code ?? '' : card.summary ?? '';
  return h('span', { class: 'result', title: [text, card.code].filter(Boolean).join('\n') }, text);
}

function renderCard(card: Card, task: string | undefined): HTMLDetailsElement {
  const el = (cardEls.get(cardKey(task, card.id)) ?? h('details', { class: 'card' })) as HTMLDetailsElement;
  const wasOpen = el.open;
  el.replaceChildren();
  el.className = `card ${card.state}`;
  el.dataset.tool = card.tool;
  const stateIcon = card.state === 'running' ? icon('loading codicon-modifier-spin', 'running') : card.state === 'ok' ? icon('pass', 'succeeded') : icon('error', 'failed');
  const summary = h('summary', {},
    stateIcon,
    h('span', { class: 'tool' }, card.tool.replace(/^browser_/, '')),
    card.target ? h('span', { class: 'target', title: card.target }, card.target) : h('span', { class: 'spacer' }),
    resultLine(card),
    card.decision ? h('span', { class: `badge decision ${/Declined|Blocked/i.test(card.decision) ? 'refused' : 'allowed'}`, title: card.reason ?? '' }, card.decision) : undefined,
    h('span', { class: 'duration' }, fmtMs(card.durationMs)),
    card.thumbnail ? h('img', { class: 'thumb', src: card.thumbnail, alt: `Screenshot from ${card.tool}` }) : undefined,
  );
  // A failure says what to do about it without expanding the card (not for refusals: that hint is for the model;
  // nor on finish, whose text is the model's own, often quoting a tool's hint meant for it).
  // Inside the <summary>: whatever else a <details> holds is hidden while the card is collapsed.
  if (card.state === 'error' && card.hint && card.code !== 'BLOCKED_BY_POLICY' && card.tool !== 'finish') summary.append(h('div', { class: 'hint' }, icon('lightbulb'), ` ${card.hint}`));
  // A notify-level step: the person is told here, on its card, why it was worth a look (no toast).
  if (card.decision === 'Notified' && card.reason) summary.append(h('div', { class: 'hint noticed' }, icon('info'), ` ${card.reason}`));
  // …and, where a setting or a guide fixes it, the button that opens it.
  if (card.state === 'error' && card.fixes?.length && card.code) {
    const code = card.code;
    summary.append(h('div', { class: 'fixes' }, ...card.fixes.map((label) => Object.assign(h('button', { class: 'fix' }, label), {
      onclick: (ev: MouseEvent) => {
        ev.preventDefault(); // a button in the summary must not also open or close the card
        send({ type: 'fix', code, label });
      },
    }))));
  }
  el.append(summary);
  el.append(h('div', { class: 'detail' },
    card.code ? h('div', { class: 'code' }, `Error code: ${card.code}`) : undefined,
    card.thumbnail ? h('img', { class: 'full', src: card.thumbnail, alt: `Screenshot from ${card.tool}, full size` }) : undefined,
    h('div', { class: 'label' }, 'Input'), h('pre', {}, JSON.stringify(card.input ?? {}, null, 2)),
    card.output !== undefined ? h('div', { class: 'label' }, 'Output') : undefined,
    card.output !== undefined ? h('pre', {}, card.output) : undefined,
    card.reason ? h('div', { class: 'safety' }, `Why it was checked: ${card.reason}`) : undefined,
  ));
  el.open = wasOpen;
  cardEls.set(cardKey(task, card.id), el);
  return el;
}

function renderEntry(e: Entry, task: string | undefined): HTMLElement {
  switch (e.kind) {
    case 'user': return h('div', { class: 'msg user' }, h('div', { class: 'who' }, icon('account'), ' You'), h('div', { class: 'text' }, e.text));
    case 'assistant': return h('div', { class: 'msg assistant' }, h('div', { class: 'text' }, unfence(e.text)));
    case 'card': return renderCard(e.card, task);
    case 'notice': return h('div', { class: 'notice' }, e.text);
    case 'result': {
      const tone = outcomeTone(e.status);
      const body = h('div', { class: `result-box ${tone}`, 'data-status': e.status },
        h('div', { class: 'who' }, icon(tone === 'ok' ? 'check' : tone === 'neutral' ? 'debug-stop' : 'warning'), ` ${outcomeLabel(e.status)}`));
      // Not verified: what happened first, then the claim, as the model's words (not as the result).
      if (e.reason) body.append(h('div', { class: 'reason' }, e.reason));
      // "Stopped by you" needs no "Stopped by the user." under it.
      if (e.reason) body.append(h('div', { class: 'text claim' }, h('span', { class: 'claim-label' }, 'The model said: '), e.summary));
      else if (!(e.status === 'stopped' && /^Stopped by the user\.?$/.test(e.summary.trim()))) body.append(h('div', { class: 'text' }, e.summary));
      if (e.data !== undefined) body.append(h('pre', {}, JSON.stringify(e.data, null, 2)));
      // A model error: the buttons that fix it, right where it is read.
      if (e.fixes?.length) {
        body.append(h('div', { class: 'fixes' }, ...e.fixes.map((label) => Object.assign(h('button', { class: label === e.fixes![0] ? 'fix primary' : 'fix' }, label), {
          onclick: () => {
            const text = task ? taskTexts.get(task) : undefined;
            // Retry sends the task again: it leaves the box it was put back into.
            if (label === 'Retry' && text && input.value.trim() === text.trim()) {
              input.value = '';
              vscode.setState({ ...vscode.getState(), draft: '' });
            }
            send({ type: 'modelFix', label, ...(label === 'Retry' && text ? { task: text } : {}) });
          },
        }))));
      }
      return body;
    }
  }
}

function taskBlock(rec: TaskRecord): HTMLElement {
  taskTexts.set(rec.id, rec.task);
  return h('section', { class: 'task', 'data-task': rec.id }, ...rec.entries.map((e) => renderEntry(e, rec.id)));
}

/** Shows a task; `earlier` conversations stay above it, separated, instead of being replaced. */
function showTask(rec: TaskRecord, isRunning: boolean, earlier: TaskRecord[] = [], append = false) {
  taskId = rec.id;
  streamingEl = undefined;
  const keep = append ? [...log.querySelectorAll<HTMLElement>(':scope > section.task')].filter((s) => s.dataset.task !== rec.id) : [];
  cardEls.clear();
  const blocks = [...keep, ...earlier.filter((r) => r.id !== rec.id).map(taskBlock), taskBlock(rec)];
  log.replaceChildren(...blocks.flatMap((b, i) => (i ? [h('hr', { class: 'task-sep', 'aria-hidden': 'true' }), b] : [b])));
  // Another task's count never stays under this one (a replay uses no model: none).
  tokens.textContent = rec.tokens ? `~${rec.tokens.toLocaleString()} tokens` : '';
  setRunning(isRunning);
  scrollDown();
}

/** The picker, grouped by provider, each group saying its status ("Anthropic — No API key saved"). */
function fillPicker(list: ModelChoice[], selected: ModelChoice | undefined, providers?: ProviderStatus[]): void {
  models = list;
  const groups = new Map<string, HTMLOptGroupElement>();
  const opts = list.map((c, i) => {
    const st = providers?.find((p) => p.provider === c.provider);
    const title = st?.title ?? c.label.split(' · ')[0];
    let g = groups.get(c.provider);
    if (!g) groups.set(c.provider, (g = h('optgroup', { label: st ? `${title} — ${st.ready ? 'ready' : 'needs setup'}` : title })));
    // Compact: the model's own name in the picker; the vendor, endpoint and status in its tooltip.
    g.append(h('option', { value: String(i), title: [c.label, st?.detail].filter(Boolean).join('\n') }, c.label.split(' · ').pop() ?? c.label));
    return g;
  });
  modelSelect.replaceChildren(...new Set(opts));
  const sel = selected ? list.findIndex((c) => c.provider === selected.provider && c.model === selected.model) : -1;
  if (sel >= 0) modelSelect.value = String(sel);
  else {
    // None chosen yet (or the chosen one is not available): say so rather than show a model that is not in use.
    modelSelect.prepend(h('option', { value: '', disabled: '' }, 'Choose a model'));
    modelSelect.value = '';
  }
  const st = providers?.find((p) => p.provider === list[sel]?.provider);
  modelSelect.title = `Model: ${list[sel]?.label ?? 'none'}${st ? `\n${st.detail}` : ''}`;
}

function setupButton(label: string, m: FromWebviewMessage, primary = false): HTMLButtonElement {
  return Object.assign(h('button', { class: primary ? 'primary' : '' }, label), { onclick: () => send(m) });
}

/** One row per provider: a dot (ready or not), its name, what it has or lacks, and what to do about it. */
function renderSetup(providers: ProviderStatus[], current?: string): void {
  setupList.replaceChildren(...providers.map((p) => {
    const inUse = p.provider === current;
    const actions: HTMLButtonElement[] = [];
    if (!inUse || !p.ready) actions.push(setupButton(inUse ? 'Set Up' : 'Use', { type: 'setup', action: 'use', provider: p.provider }, !inUse && p.ready));
    if (p.provider === 'openai') actions.push(setupButton('Base URL…', { type: 'setup', action: 'setBaseURL', provider: p.provider }));
    if (p.provider !== 'vscode-lm') actions.push(setupButton(p.keySaved ? 'Change Key…' : 'Set API Key…', { type: 'setup', action: 'setKey', provider: p.provider }));
    if (p.ready) actions.push(setupButton('Model…', { type: 'setup', action: 'chooseModel', provider: p.provider }));
    const local = (p.local ?? []).map((l) => h('div', { class: 'setup-local' }, icon('vm-running'), ` ${l.name} answers at ${l.baseURL} (${l.models.length} model${l.models.length === 1 ? '' : 's'}) `,
      setupButton(`Use ${l.name}`, { type: 'useLocal', baseURL: l.baseURL }, !p.ready)));
    return h('div', { class: `setup-row ${p.ready ? 'ready' : 'missing'}`, 'data-provider': p.provider },
      h('div', { class: 'setup-head' }, h('span', { class: `dot ${p.ready ? 'ok' : 'bad'}`, role: 'img', 'aria-label': p.ready ? 'ready' : 'needs setup' }),
        h('span', { class: 'setup-title' }, p.title), inUse ? h('span', { class: 'badge allowed' }, 'in use') : undefined),
      h('div', { class: 'setup-detail', title: p.detail }, p.detail),
      ...local,
      h('div', { class: 'setup-actions' }, ...actions));
  }));
}

function showSetup(show: boolean): void {
  setupPanel.hidden = !show;
  setupBtn.setAttribute('aria-expanded', String(show));
  if (show) {
    historyPanel.hidden = true;
    historyBtn.setAttribute('aria-expanded', 'false');
  }
}

function showHistory(items: HistoryItem[]): void {
  historyList.replaceChildren(...items.map((t) => {
    const turns = t.turns && t.turns > 1 ? `${t.turns} messages` : undefined;
    // Two lines: the task gets the whole width; how it ended, how long the thread is and when, below it.
    const b = h('button', { class: 'history-item', title: [t.task, t.label ?? outcomeLabel(t.status), turns].filter(Boolean).join('\n') },
      h('span', { class: `dot ${outcomeTone(t.status)}`, 'aria-label': outcomeLabel(t.status), role: 'img' }),
      h('span', { class: 'h-lines' }, h('span', { class: 'h-task' }, t.task), h('span', { class: 'h-line2' },
        h('span', { class: 'h-meta' }, outcomeLabel(t.status)),
        turns ? h('span', { class: 'h-turns', title: turns, 'aria-label': turns }, icon('comment-discussion'), String(t.turns)) : undefined,
        t.when ? h('span', { class: 'h-when' }, t.when) : undefined)));
    b.addEventListener('click', () => send({ type: 'openTask', id: t.id }));
    return h('li', {}, b);
  }));
  if (!items.length) historyList.append(h('li', { class: 'empty' }, 'No tasks yet.'));
}

function handle(m: ToWebviewMessage) {
  switch (m.type) {
    case 'history':
      showHistory(m.history);
      return;
    case 'models':
      fillPicker(m.models, m.selected, m.providers);
      renderSetup(m.providers, m.selected?.provider);
      usable = m.usable;
      setRunning(running);
      return;
    case 'init': {
      models = m.models;
      fillPicker(m.models, m.selected, m.providers);
      if (m.providers) renderSetup(m.providers, m.selected?.provider);
      if (m.usable) usable = m.usable;
      // Nothing can answer and nothing is on screen: the setup is what the person needs first.
      if (m.usable && !m.usable.ok && !m.current && !m.running) showSetup(true);
      modeSelect.value = m.mode;
      showHistory(m.history);
      if (m.current && (m.current.id !== taskId || recorded)) {
        recorded = false;
        showTask(m.current, m.running, m.earlier ?? []);
      } else if (!m.current) {
        taskId = undefined;
        log.replaceChildren(h('div', { class: 'welcome' }, h('p', {}, 'Type a task and press Enter. The agent drives the browser step by step; sensitive steps ask you first, and Stop ends the run at once.')));
        tokens.textContent = '';
      }
      setRunning(m.running);
      break;
    }
    case 'task':
      showSetup(false);
      historyPanel.hidden = true;
      historyBtn.setAttribute('aria-expanded', 'false');
      recorded = !!m.recorded;
      showTask(m.record, m.running, m.earlier ?? [], !!m.append);
      if (recorded) log.prepend(h('div', { class: 'notice recorded' }, icon('history'), ` ${m.notice ?? 'A recorded task.'} `, Object.assign(h('button', { class: 'link' }, 'Back to the chat'), { onclick: () => send({ type: 'backToChat' }) })));
      else if (m.notice) log.prepend(h('div', { class: 'notice resumed' }, icon('history'), ` ${m.notice}`));
      // A past task: replay it here, export it, or keep it as a skill, from where it is read.
      if (m.actions) {
        const id = m.actions.id;
        const act = (label: string, action: 'replay' | 'export' | 'saveSkill', codicon: string, title: string) =>
          Object.assign(h('button', { class: 'task-action', 'data-action': action, title }, icon(codicon), label), { onclick: () => send({ type: 'taskAction', action, id }) });
        log.querySelector('.notice')?.after(h('div', { class: 'task-actions', role: 'toolbar', 'aria-label': 'This task' },
          act('Replay', 'replay', 'debug-rerun', 'Re-run its steps in the browser without a model (asks first; sensitive steps ask again)'),
          act('Export', 'export', 'export', 'Export its log, screenshots and a Playwright test'),
          m.actions.skill ? act('Save as Skill', 'saveSkill', 'book', 'Write its steps as a SKILL.md a later run can follow') : undefined));
      }
      break;
    case 'draft':
      // Never over what the person typed since.
      if (!input.value.trim()) {
        input.value = m.text;
        vscode.setState({ ...vscode.getState(), draft: m.text });
      }
      break;
    case 'session':
      sessionLive = m.live;
      // Short badge (Live, No browser, Disconnected…); the detail in its tooltip.
      liveState.textContent = m.label.split(' · ')[0];
      liveState.title = m.label;
      liveState.className = `live-state ${m.live ? 'on' : 'off'}`;
      liveUrl.textContent = m.url ?? '';
      liveUrl.title = m.url ?? '';
      frameImg.classList.toggle('stale', !m.live);
      liveEmpty.textContent = m.live ? m.note : m.note || 'Not live.';
      liveEmpty.hidden = m.live && !!frameImg.getAttribute('src') && !m.note;
      break;
    case 'entry':
      if (m.taskId !== taskId) return;
      streamingEl = undefined;
      (log.querySelector<HTMLElement>(`section.task[data-task="${m.taskId}"]`) ?? log).append(renderEntry(m.entry, m.taskId));
      scrollDown();
      break;
    case 'delta':
      if (m.taskId !== taskId) return;
      if (!streamingEl) {
        streamingEl = h('div', { class: 'text' });
        (log.querySelector<HTMLElement>(`section.task[data-task="${m.taskId}"]`) ?? log).append(h('div', { class: 'msg assistant' }, streamingEl));
      }
      // The whole text so far, so a fence split across deltas is still taken out.
      streamingEl.dataset.raw = (streamingEl.dataset.raw ?? '') + m.text;
      streamingEl.textContent = unfence(streamingEl.dataset.raw);
      scrollDown();
      break;
    case 'card': {
      if (m.taskId !== taskId) return;
      streamingEl = undefined;
      const fresh = !cardEls.has(cardKey(m.taskId, m.card.id));
      const el = renderCard(m.card, m.taskId);
      if (fresh) (log.querySelector<HTMLElement>(`section.task[data-task="${m.taskId}"]`) ?? log).append(el);
      scrollDown();
      break;
    }
    case 'tokens':
      if (m.taskId === taskId) tokens.textContent = `~${m.estimate.toLocaleString()} tokens${m.inputTokens ? ` (last request ${m.inputTokens.toLocaleString()})` : ''}`;
      break;
    case 'status':
      statusLine.textContent = m.text;
      updateWorking();
      break;
    case 'running':
      setRunning(m.running);
      break;

    case 'frame':
      if (!sessionLive) break; // a late frame from a browser that is gone
      liveEmpty.hidden = true;
      frameImg.classList.remove('stale');
      frameImg.src = `data:image/jpeg;base64,${m.data}`;
      noteFrameSize(frameImg, m.width, m.height);
      break;
    case 'highlight':
      placeHighlight(highlight, frameImg, m.box, m.label);
      break;
  }
}

// ---- input --------------------------------------------------------------------------------
function run() {
  const task = input.value.trim();
  // No model can answer: the task stays in the box and the setup says what is missing.
  if (!usable.ok) return showSetup(true);
  if (!task || running) return;
  send({ type: 'run', task });
  input.value = '';
  vscode.setState({ ...vscode.getState(), draft: '' });
}
runBtn.addEventListener('click', run);
stopBtn.addEventListener('click', () => send({ type: 'stop' }));
newBtn.addEventListener('click', () => {
  send({ type: 'newTask' });
  input.focus();
});
setupBtn.addEventListener('click', () => showSetup(setupPanel.hidden));
historyBtn.addEventListener('click', () => {
  if (historyPanel.hidden) showSetup(false);
  historyPanel.hidden = !historyPanel.hidden;
  historyBtn.setAttribute('aria-expanded', String(!historyPanel.hidden));
});
clearHistory.addEventListener('click', () => send({ type: 'clearHistory' }));
modelSelect.addEventListener('change', () => {
  const c = models[Number(modelSelect.value)];
  if (c) send({ type: 'selectModel', choice: c });
});
modeSelect.addEventListener('change', () => send({ type: 'selectMode', mode: modeSelect.value as 'auto' | 'dom' | 'hybrid' }));
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    run();
  }
});
input.addEventListener('input', () => vscode.setState({ ...vscode.getState(), draft: input.value }));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && running) send({ type: 'stop' });
});

window.addEventListener('message', (ev) => {
  const parsed = ToWebview.safeParse(ev.data);
  if (parsed.success) handle(parsed.data);
  else console.warn('Browser Agent: ignored a malformed message', parsed.error.issues[0]);
});
send({ type: 'ready' });
