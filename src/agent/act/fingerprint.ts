import { createHash } from 'node:crypto';
import { callOnElement } from '../../actions/element';
import type { ElementHandle } from '../../snapshot/types';
import { pageFns } from '../../page/fn';
import targetFns from '../../page/target.ts?pagefn';

const targetPage = pageFns<typeof import('../../page/target')>(targetFns);

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
export async function placementOf(h: ElementHandle): Promise<Placement> {
  const r = await callOnElement<{ region: string; sibling: number; siblings: number }>(h, targetPage.placement);
  return { region: createHash('sha256').update(r.region).digest('hex').slice(0, 16), sibling: r.sibling, siblings: r.siblings };
}

export function samePlacement(a: Placement, b: Placement): boolean {
  return a.region === b.region && a.sibling === b.sibling && a.siblings === b.siblings;
}
