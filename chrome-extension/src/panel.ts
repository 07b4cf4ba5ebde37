// The side panel: connection state, pairing, sharing this tab, shared tabs, sessions with their
// current step and a Stop button. It only talks to the service worker (a port keeps it awake).
import type { SharedTab } from '../../src/session/relayProtocol';
import type { PanelRequest, PanelState } from './worker';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let port: chrome.runtime.Port;
let last: PanelState | undefined;
let nextId = 1;
const waiting = new Map<number, (error?: string) => void>();

function request(req: PanelRequest): Promise<void> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, (error) => (error ? reject(new Error(error)) : resolve()));
    port.postMessage({ ...req, id });
  });
}

function showError(e: unknown) {
  $('error').textContent = e instanceof Error ? e.message : e ? String(e) : '';
}

async function currentTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab;
}

/** A list row: a one-line title, an optional one-line detail (cut with … when long) and an optional note that wraps. */
function item(text: string, button?: { label: string; onClick: () => void }, sub?: string, note?: string): HTMLLIElement {
  const li = document.createElement('li');
  const span = document.createElement('span');
  span.className = 'grow';
  const title = document.createElement('div');
  title.className = 'line';
  title.textContent = text;
  span.append(title);
  if (sub) {
    const s = document.createElement('div');
    s.className = 'line step';
    s.textContent = sub;
    s.title = sub;
    span.append(s);
  }
  if (note) {
    const n = document.createElement('div');
    n.className = 'note';
    n.textContent = note;
    span.append(n);
  }
  li.append(span);
  if (button) {
    const b = document.createElement('button');
    b.textContent = button.label;
    b.onclick = button.onClick;
    li.append(b);
  }
  return li;
}

async function render(s: PanelState) {
  last = s;
  const state = $('state');
  state.textContent = s.paired ? s.state : 'not paired';
  state.className = `state ${(s.paired ? s.state : 'not paired').replace(' ', '-')}`;
  $('detail').textContent = s.state === 'connected' ? `to Browser Agent on 127.0.0.1:${s.port}` : s.lastError ?? '';
  $('reconnect').hidden = s.state === 'connected' || !s.paired;
  // Once paired, the field is only for a new code ("New Code" in VS Code), not a step left to do.
  $<HTMLInputElement>('code').placeholder = s.paired ? 'paired · new code only after “New Code”' : '47321-…';
  const tab = await currentTab();
  const sharedHere = !!tab && s.shared.some((t) => t.tabId === tab.id);
  $('toggle').textContent = sharedHere ? 'Stop sharing this tab' : 'Share this tab';
  const tabs = $('tabs');
  // A tab under a session's origin rules: Chrome itself stops what its popups would send to a blocked site.
  const guardNote = (t: SharedTab) => (s.guarded.includes(t.tabId) ? 'Blocked sites stay blocked in its popups.' : undefined);
  tabs.replaceChildren(...s.shared.map((t) => item(t.title || t.url, { label: 'Stop sharing', onClick: () => void request({ t: 'unshare', tabId: t.tabId }).catch(showError) }, t.url, guardNote(t))));
  if (!s.shared.length) tabs.append(item('No tab is shared.'));
  const titles = new Map(s.shared.map((t) => [t.tabId, t.title || t.url]));
  const sessions = $('sessions');
  sessions.replaceChildren(
    ...s.sessions.map((x) =>
      item(`${x.client} — ${x.tabs.map((id) => titles.get(id) ?? `tab ${id}`).join(', ') || 'no tab'}`, { label: 'Stop', onClick: () => void request({ t: 'stop', session: x.id }).catch(showError) }, x.step ? `now: ${x.step}` : 'idle'),
    ),
  );
  if (!s.sessions.length) sessions.append(item('No agent is working here.'));
}

function connectPort() {
  port = chrome.runtime.connect({ name: 'panel' });
  port.onMessage.addListener((msg: { t: 'state'; state: PanelState } | { t: 'done'; id: number; error?: string }) => {
    if (msg.t === 'state') void render(msg.state);
    else {
      waiting.get(msg.id)?.(msg.error);
      waiting.delete(msg.id);
    }
  });
  // The worker was stopped: connect again (which wakes it).
  port.onDisconnect.addListener(() => setTimeout(connectPort, 100));
}

$('pair').onclick = () => {
  showError('');
  void request({ t: 'pair', code: $<HTMLInputElement>('code').value }).then(() => ($<HTMLInputElement>('code').value = ''), showError);
};
$('reconnect').onclick = () => void request({ t: 'reconnect' }).catch(showError);
$('toggle').onclick = async () => {
  showError('');
  const tab = await currentTab();
  if (tab?.id === undefined) return;
  const sharedHere = !!last?.shared.some((t) => t.tabId === tab.id);
  await request(sharedHere ? { t: 'unshare', tabId: tab.id } : { t: 'share', tabId: tab.id }).catch(showError);
};
chrome.tabs.onActivated.addListener(() => last && void render(last));
connectPort();
