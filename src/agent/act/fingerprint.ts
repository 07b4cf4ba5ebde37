import { createHash } from 'node:crypto';
import { callOnElement } from '../../actions/element';
import type { ElementHandle } from '../../snapshot/types';

/** Where a target sits: a hash of its region's structure, and its place among its siblings. */
export interface Placement {
  /** Hash of the interactive elements (tag, type, role, text) of the target's nearest region. */
  region: string;
  /** Index among the parent's children with the same tag. */
  sibling: number;
  /** Number of such siblings (a list that grew or shrank is another page). */
  siblings: number;
}

/**
 * Runs on the target element: its nearest structural region (form, dialog, landmark, list,
 * table, fieldset, section, else the body), described by the tag, type, role and short text of
 * every interactive element in it, in document order. Text and attributes only; nothing changes.
 */
const PLACEMENT_FN = `function (el) {
  const REGION = 'form,[role=form],dialog,[role=dialog],[role=alertdialog],nav,main,aside,header,footer,[role=navigation],[role=main],[role=region],[role=search],fieldset,table,ul,ol,[role=list],[role=listbox],[role=menu],[role=grid],[role=tablist],section,article';
  const region = (el.parentElement && el.parentElement.closest(REGION)) || el.ownerDocument.body || el.ownerDocument.documentElement;
  const INTERACTIVE = 'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=combobox],[role=textbox],[contenteditable=""],[contenteditable=true]';
  const parts = [];
  for (const e of region.querySelectorAll(INTERACTIVE)) {
    if (parts.length >= 300) break;
    const text = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('placeholder') || e.getAttribute('name') || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
    parts.push([e.tagName, e.getAttribute('type') || '', e.getAttribute('role') || '', text].join('|'));
  }
  const same = el.parentElement ? Array.from(el.parentElement.children).filter((c) => c.tagName === el.tagName) : [el];
  return { region: region.tagName + '#' + parts.join('\\n'), sibling: same.indexOf(el), siblings: same.length };
}`;

export async function placementOf(h: ElementHandle): Promise<Placement> {
  const r = await callOnElement<{ region: string; sibling: number; siblings: number }>(h, PLACEMENT_FN);
  return { region: createHash('sha256').update(r.region).digest('hex').slice(0, 16), sibling: r.sibling, siblings: r.siblings };
}

export function samePlacement(a: Placement, b: Placement): boolean {
  return a.region === b.region && a.sibling === b.sibling && a.siblings === b.siblings;
}
