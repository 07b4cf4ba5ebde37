// What the CDP side asks about besides a run: the page at a glance (summary), the facts of refs
// (details), and a ref's current selector and XPath (fingerprint, for stale-ref messages).
import type { SummaryResult, DetailsResult } from '../protocol';
import { accessibleName, cap, clean, explicitRole, nativeRole } from './roles';
import { fullValue } from './states';
import { cssPath, xPath } from './selectors';
import { isRendered } from './interactive';
import { deepActive, parentEl } from './tree';
import { S, get } from './world';

export function summary(): SummaryResult {
  const q = (s: string) => document.querySelectorAll(s).length;
  const active = deepActive();
  const dialogs = Array.from(document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')).filter((d) => isRendered(d));
  const dialog = dialogs[0];
  const body = document.body;
  const text = body ? clean(body.innerText.slice(0, 1500)).slice(0, 400) : '';
  return {
    url: location.href,
    title: document.title,
    viewport: [innerWidth, innerHeight],
    scroll: [Math.round(scrollX), Math.round(scrollY)],
    size: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    counts: {
      links: q('a[href]'),
      buttons: q('button, [role=button], input[type=submit], input[type=button], input[type=reset]'),
      inputs: q('input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]), textarea, [contenteditable=""], [contenteditable=true]'),
      selects: q('select, [role=combobox], [role=listbox]'),
      forms: q('form'),
      images: q('img, svg[role=img]'),
      iframes: q('iframe, frame'),
    },
    focused: active && active !== body && active !== document.documentElement ? describeShort(active) : '',
    dialog: dialog ? cap(clean(dialog.getAttribute('aria-label')) || subtreeTextShort(dialog), 120) : '',
    text,
  };
}

function subtreeTextShort(el: Element): string {
  return clean((el as HTMLElement).innerText ?? el.textContent).slice(0, 120);
}

function describeShort(el: Element): string {
  const role = explicitRole(el) ?? nativeRole(el) ?? el.localName;
  const id = S.map.get(el);
  return `${id !== undefined ? `[${id}] ` : ''}${role} "${cap(accessibleName(el, role), 60)}"`;
}

export function details(ids: number[]): DetailsResult[] {
  return ids.map((id) => {
    const el = get(id);
    if (!el) return { id, missing: true };
    const attrs: Record<string, string> = {};
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'value' && (el as HTMLInputElement).type === 'password') continue;
      attrs[a.name] = cap(a.value, 200);
    }
    const r = el.getBoundingClientRect();
    const parent = parentEl(el);
    const root = el.getRootNode();
    return {
      id,
      tag: el.localName,
      attrs,
      selector: cssPath(el),
      xpath: xPath(el),
      shadowHost: root instanceof ShadowRoot ? cssPath(root.host) : undefined,
      bbox: [Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)],
      parentText: parent ? cap(clean((parent as HTMLElement).innerText ?? parent.textContent), 160) : '',
      children: el.children.length,
      href: (el as HTMLAnchorElement).href && typeof (el as HTMLAnchorElement).href === 'string' ? (el as HTMLAnchorElement).href : undefined,
      text: cap(clean((el as HTMLElement).innerText ?? el.textContent), 200),
      value: fullValue(el) || undefined,
    };
  });
}

/** Current role/name/selector of a ref, for fingerprints and stale-ref messages. */
export function fingerprint(id: number) {
  const el = get(id);
  if (!el) return null;
  const root = el.getRootNode();
  return { selector: (root instanceof ShadowRoot ? cssPath(root.host) + ' >>> ' : '') + cssPath(el), xpath: xPath(el) };
}
