/**
 * What finds an element again later: its CSS path and XPath, the text near it, its place in its region
 * (tools/common.ts previews, audit/relocate.ts replay, agent/act's cache). One path generator for all,
 * snapshot/selectors.ts's, which the snapshot's own fingerprints use too.
 */
import { loose } from './dom';
import { cssPath, xPath } from './snapshot/selectors';

const squash = (t: string | null | undefined) => (t || '').replace(/\s+/g, ' ').trim();

/**
 * `this`: an element. Text of its first ancestor (up to 5 levels) that has text beyond the element's own and
 * its label's: the label repeats the accessible name, so it cannot tell two "City" fields apart, but the
 * "Shipping" around one of them can.
 */
export function nearText(this: Element): string {
  const self = loose(this)!;
  const known = [squash(self.innerText || self.textContent), ...[...(self.labels || [])].map((l) => squash(l.innerText || l.textContent))].filter(Boolean);
  let el = self.parentElement;
  for (let i = 0; el && i < 5; i++, el = el.parentElement) {
    let t = squash(el.innerText || el.textContent);
    for (const k of known) t = t.replace(k, ' ');
    t = squash(t);
    if (t) return t.slice(0, 80);
  }
  return '';
}

/**
 * `this`: an element. A CSS path and an XPath computed from it, for when the snapshot's own fingerprint has
 * none (so every recorded action can be found again); none inside a shadow root, where neither reaches.
 */
export function elementPaths(this: Element): { selector: string; xpath: string } {
  const inShadow = this.getRootNode() instanceof ShadowRoot;
  return { selector: inShadow ? '' : cssPath(this), xpath: inShadow ? '' : xPath(this) };
}

/** The single element for a CSS selector or XPath in this document, else how many matched (-1: not valid). */
export function findOne(kind: 'selector' | 'xpath', query: string): Node | number {
  try {
    if (kind === 'selector') {
      const all = document.querySelectorAll(query);
      return all.length === 1 ? all[0] : all.length;
    }
    const snap = document.evaluate(query, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    return snap.snapshotLength === 1 ? snap.snapshotItem(0)! : snap.snapshotLength;
  } catch {
    return -1;
  }
}

/**
 * Where the element sits: the interactive elements of its region (form, dialog, list, landmark…) as text to
 * hash, and its index among its same-tag siblings. A cached page action is replayed only where these agree.
 */
export function placement(el: Element): { region: string; sibling: number; siblings: number } {
  const REGION = 'form,[role=form],dialog,[role=dialog],[role=alertdialog],nav,main,aside,header,footer,[role=navigation],[role=main],[role=region],[role=search],fieldset,table,ul,ol,[role=list],[role=listbox],[role=menu],[role=grid],[role=tablist],section,article';
  const region = (el.parentElement && el.parentElement.closest(REGION)) || el.ownerDocument.body || el.ownerDocument.documentElement;
  const INTERACTIVE = 'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox],[role=textbox],[contenteditable=""],[contenteditable=true]';
  const parts: string[] = [];
  for (const e of region.querySelectorAll(INTERACTIVE)) {
    if (parts.length >= 300) break;
    const text = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('placeholder') || e.getAttribute('name') || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    parts.push([e.tagName, e.getAttribute('type') || '', e.getAttribute('role') || '', text].join('|'));
  }
  const same = el.parentElement ? Array.from(el.parentElement.children).filter((c) => c.tagName === el.tagName) : [el];
  return { region: region.tagName + '#' + parts.join('\n'), sibling: same.indexOf(el), siblings: same.length };
}

/** A password, one-time-code or card field: what a cached action must never hold the text of. */
export function isSecretField(el: Element): boolean {
  const f = loose(el)!;
  return f.type === 'password' || /one-time-code|cc-/.test(f.autocomplete || '');
}
