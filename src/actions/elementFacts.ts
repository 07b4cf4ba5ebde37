import type { ElementFacts } from '../contract/types';

// The facts themselves are read in the page: page/actions/elementFacts.ts. Here, what the policy does with them.

/** Every text of the facts a name phrase could be in, with where it came from (for the reason a person reads). */
export function factTexts(name: string | undefined, f: ElementFacts | undefined): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  if (name) out.push({ where: 'its name', text: name });
  if (!f) return out;
  if (f.visible) out.push({ where: 'its visible text', text: f.visible });
  for (const l of f.labels ?? []) out.push({ where: 'its label', text: l });
  for (const d of f.drawn ?? []) out.push({ where: 'its CSS-drawn text', text: d });
  for (const s of f.svg ?? []) out.push({ where: 'its SVG title', text: s });
  return out;
}

/** Icon words that mark a destructive control when they are all it shows (class names, ids, image file names). */
export const ICON_HINTS = ['trash', 'delete', 'remove', 'bin', 'garbage', 'wastebasket', 'destroy', 'erase', 'discard'];
