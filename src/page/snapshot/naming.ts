// What an element item is called: its name (accessible name, or the visible text of an item), and for an
// unnamed control a hint saying what it is or where it sits, from the strongest signal to the weakest.
import { accessibleName, cap, clean, describeSvg, iconHint } from './roles';
import { visibleName } from './items';
import { treeToggleOf } from './structure';
import { describeShape, drawnMark, svgText } from './drawn';
import { MAX_NAME, attributeName } from './reading';
import { ICON_ROLES, classHint, controlsHint, describedHint, idHint, rowHint } from './hints';

/** The element's name; `byText`: an item named by its visible text, read past MAX_NAME so the rest can follow. */
export function nameOf(el: Element, role: string, control: Element | undefined, byText: boolean): string {
  // Read past MAX_NAME so that a long item (a terminal's output) is cut with its rest following.
  let name = byText ? visibleName(el, MAX_NAME + 1) : accessibleName(el, role);
  if (!name && control) name = accessibleName(control, role);
  if (!name) {
    // Glyphs drawn with SVG <text> (a letter, a digit) name the control that shows them.
    const svg = el.localName === 'svg' ? el : el.querySelector('svg');
    if (svg) name = svgText(svg);
  }
  if (!name && el instanceof SVGElement && el.localName !== 'svg') name = clean(el.querySelector(':scope > title')?.textContent) || svgText(el);
  return name;
}

/** What an unnamed element is, or where: `target` is the control behind it (a label's input), `lastText` what it follows. */
export function hintOf(el: Element, role: string, target: Element, item: boolean, lastText: string): string {
  let hint = '';
  if (el instanceof SVGElement && el.localName !== 'svg') hint = describeShape(el);
  // An icon button's `value=Search` says more than the shape of its icon.
  if (!hint && target.localName === 'button') hint = attributeName(target);
  // What the author wrote for it (a description, a tooltip) says more than its looks.
  if (!hint) hint = describedHint(el);
  // A tree node's toggle (a treeview's hit area) is named after the node it opens and closes.
  if (!hint) {
    const node = treeToggleOf(el);
    if (node) hint = `toggles ${JSON.stringify(node)}`;
  }
  if (!hint) hint = looksHint(el);
  // Items say where they are (`2 of 9`); other unnamed controls say what they follow.
  if (!hint) hint = attributeName(target);
  if (!hint) hint = controlsHint(el);
  if (!hint && !item && ICON_ROLES.has(role)) {
    const c = classHint(el);
    if (c) hint = `${c} icon`;
  }
  if (!hint) hint = rowHint(el);
  if (!hint) hint = idHint(target);
  if (!hint && lastText && !item) hint = `after "${cap(lastText, 30)}"`;
  return hint;
}

/** What it looks like: its SVG, its icon font or class, a mark drawn by CSS. */
function looksHint(el: Element): string {
  let hint = '';
  if (el.localName === 'svg' || (!clean(el.textContent) && el.querySelector('svg'))) {
    const svg = el.localName === 'svg' ? el : el.querySelector('svg')!;
    const d = describeSvg(svg);
    if (d) hint = `svg: ${d}`;
  }
  const ih = iconHint(el);
  if (ih) hint = hint ? `${ih}; ${hint}` : `${ih} icon`;
  if (!hint) {
    const m = drawnMark(el);
    if (m) hint = `drawn: ${m}`;
  }
  return hint;
}
