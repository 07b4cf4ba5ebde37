import type { TargetFingerprint, ToolContext } from '../contract/types';
import { shownRef, was } from '../snapshot/shown';

/**
 * What a step acts on, in words for its card: `button "Save"` rather than `ref 3`. A person reads the
 * card; refs are the model's handles and mean nothing to them.
 */

/** The raw target of a call's input (`ref 3`, a selector, a URL, a point): also the loop's key for repeated failures. */
export function targetOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as Record<string, unknown>;
  for (const k of ['ref', 'selector', 'element', 'url', 'text']) if (typeof i[k] === 'string' && i[k].trim()) return `${k === 'ref' ? 'ref ' : ''}${String(i[k]).trim().slice(0, 120)}`;
  if (typeof i.x === 'number' && typeof i.y === 'number') return `(${i.x}, ${i.y})`;
  return undefined;
}

/** `button "Save"` for a recorded element; undefined without a name. */
export function elementLabel(t: Pick<TargetFingerprint, 'role' | 'name'> | undefined): string | undefined {
  if (!t?.name) return undefined;
  return t.role ? was({ role: t.role, name: t.name }) : JSON.stringify(t.name);
}

/**
 * The card's target before the step runs: a ref as the element the model was shown under it (its role and name,
 * read from what this tab showed, without touching the page), anything else as the input says.
 */
export async function stepTarget(input: unknown, ctx: Pick<ToolContext, 'sessions' | 'tab'>): Promise<string | undefined> {
  const raw = targetOf(input);
  const ref = (input as { ref?: unknown } | undefined)?.ref;
  if (typeof ref !== 'string' || !ctx.sessions.current) return raw;
  try {
    return was(shownRef(await ctx.tab(), ref).rec);
  } catch {
    return raw; // a ref this tab never showed: the step will say so
  }
}
