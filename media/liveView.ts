// The editor-area live view ("Browser: Live View", src/vscode/liveView.ts): the active tab's picture, the session's
// state, and the outline of the element a step acts on, drawn by the same code as the chat panel's (./highlight).
// Page text (a URL, a title) is only ever set as textContent.
import { noteFrameSize, placeHighlight, type Box } from './highlight';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const img = $<HTMLImageElement>('live-frame');
const outline = $<HTMLDivElement>('highlight');
const state = $<HTMLSpanElement>('state');
const url = $<HTMLSpanElement>('url');
const empty = $<HTMLDivElement>('empty');

const isBox = (b: unknown): b is Box => !!b && typeof b === 'object' && ['x', 'y', 'width', 'height'].every((k) => typeof (b as Record<string, unknown>)[k] === 'number');

window.addEventListener('message', (ev: MessageEvent) => {
  const m = ev.data as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'frame' && typeof m.data === 'string' && typeof m.width === 'number' && typeof m.height === 'number') {
    img.src = `data:image/jpeg;base64,${m.data}`;
    noteFrameSize(img, m.width, m.height);
    img.hidden = false;
    img.classList.remove('stale');
    empty.hidden = true;
  } else if (m.type === 'state') {
    state.textContent = String(m.label ?? '');
    url.textContent = String(m.url ?? '');
    url.title = String(m.url ?? '');
    if (!m.live) {
      img.classList.add('stale');
      outline.hidden = true;
      empty.textContent = String(m.note ?? '');
      empty.hidden = false;
      if (!img.getAttribute('src')) img.hidden = true;
    }
  } else if (m.type === 'highlight') {
    placeHighlight(outline, img, isBox(m.box) ? m.box : undefined, typeof m.label === 'string' ? m.label : undefined);
  }
});
