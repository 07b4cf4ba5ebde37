// Areas that scroll on their own (a virtualized list, a chat pane, an app's main column): what is not
// rendered yet cannot be found or read, so the snapshot says the area scrolls and how far, and the model
// scrolls it (browser_scroll with a ref inside). Runs inside the page, with the extractor.
import { labelOf } from './reading';

/** Less hidden than this is a box with a little overflow, not an area with more to show. */
const MIN_HIDDEN_PX = 100;

/**
 * The section marker for `el`: its landmark (if any) and, when it scrolls vertically by itself, where it is:
 * `scrollable list "Customers", at y=0 of 319600 px`, `main scrollable, at y=0 of 5000 px`.
 */
export function sectionOf(landmark: string, el: Element, st: CSSStyleDeclaration): string {
  const o = st.overflowY;
  if ((o !== 'auto' && o !== 'scroll' && o !== 'overlay') || el === document.documentElement || el === document.body) return landmark;
  const hidden = el.scrollHeight - el.clientHeight;
  if (hidden < MIN_HIDDEN_PX) return landmark;
  const at = `at y=${Math.round(el.scrollTop)} of ${hidden} px`;
  if (landmark) return `${landmark.split(' ')[0]} scrollable${landmark.includes(' ') ? landmark.slice(landmark.indexOf(' ')) : ''}, ${at}`;
  const role = el.getAttribute('role');
  const name = labelOf(el);
  return `scrollable${role ? ` ${role}` : ''}${name ? ` ${JSON.stringify(name.length > 60 ? name.slice(0, 59) + '…' : name)}` : ''}, ${at}`;
}

/**
 * Whether the centre of `r` lies outside an ancestor that clips its overflow (a row scrolled out of its
 * list's view): such an element is out of view, not covered by whatever the page shows at that point.
 */
export function clippedByAncestor(el: Element, r: DOMRect): boolean {
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  for (let e = el.parentElement; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
    const st = getComputedStyle(e);
    if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
    const c = e.getBoundingClientRect();
    if (x < c.left || x > c.right || y < c.top || y > c.bottom) return true;
  }
  return false;
}
