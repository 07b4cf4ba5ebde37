/** What has focus, read in the isolated world of a frame (actions/focusFacts.ts, actions/type.ts). */
import { elementFacts, type ElementFacts } from './elementFacts';
import { ignore } from '../ignore';

const PAGE_TEXT_LIMIT = 20_000;

/** The focused element of `d`, through open shadow roots. */
const deep = (d: Document): Element | null => { let e = d.activeElement; while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement; return e; };

export interface FocusRead {
  text: string;
  focused?: ElementFacts & { role?: string };
  crossFrame: boolean;
  hasFocus: boolean;
}

/**
 * The visible text (with `withText`), and the facts of the focused element — through open shadow roots and
 * same-origin iframes. `crossFrame`: focus is inside an iframe this document cannot look into (another origin).
 */
export function readFocus(withText: boolean): FocusRead {
  let doc = document, e = deep(document), crossFrame = false;
  for (let i = 0; i < 8 && e && (e.localName === 'iframe' || e.localName === 'frame'); i++) {
    let inner: Document | null = null;
    try { inner = (e as HTMLIFrameElement).contentDocument; } catch (err) { ignore(err, 'another origin'); }
    if (!inner) { crossFrame = true; break; }
    doc = inner;
    e = deep(inner);
  }
  const none = !e || e === doc.body || e === doc.documentElement;
  const focused = none || crossFrame ? undefined : elementFacts(e, false);
  const text = withText && document.body ? String(document.body.innerText || '').slice(0, PAGE_TEXT_LIMIT) : '';
  return { text, focused: focused ?? undefined, crossFrame, hasFocus: document.hasFocus() };
}

/** `tag#id` of the focused element, through open shadow roots; '' when the body has it. */
export function focusedName(): string {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a && a !== document.body ? a.localName + (a.id ? '#' + a.id : '') : '';
}
