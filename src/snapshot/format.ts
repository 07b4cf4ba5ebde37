// Turns extracted items into the text a model reads: one line per element, compact page text,
// frames marked, all page-derived text inside one clearly delimited untrusted block.
import { randomBytes } from 'node:crypto';
import type { ElementItem } from './protocol';
import { refString, type FrameResult } from './frames';

export interface Line {
  kind: 'element' | 'text' | 'frame';
  text: string;
  ref?: string;
  prefix?: number;
  role?: string;
  name?: string;
  /** The whole value of an element whose line shows it cut. */
  full?: string;
}

/** `[12] button "Submit" disabled`, `[3] button (search icon)`, `… covered by [40]`. */
export function elementLine(ref: string, it: ElementItem): string {
  let s = `[${ref}] ${it.role}`;
  if (it.name) s += ` ${JSON.stringify(it.name)}`;
  if (it.hint) s += ` (${it.hint})`;
  if (it.st) s += ` ${it.st}`;
  if (it.cov) s += ` covered-by ${it.cov}`;
  return s;
}

export function flatten(r: FrameResult, out: Line[] = []): Line[] {
  for (const it of r.items) {
    if ('id' in it) {
      const ref = refString(r.frame.prefix, it.id);
      // A coverer named by ref number in a frame needs the frame prefix too.
      const fixed = it.cov && r.frame.prefix && /^\[\d+\]$/.test(it.cov) ? { ...it, cov: `[${refString(r.frame.prefix, Number(it.cov.slice(1, -1)))}]` } : it;
      out.push({ kind: 'element', text: elementLine(ref, fixed), ref, prefix: r.frame.prefix, role: it.role, name: it.name || it.hint || '', full: it.full });
    } else if ('t' in it) {
      out.push({ kind: 'text', text: it.t });
    } else {
      const child = r.children.get(it.frame);
      if (!child) continue;
      if ('frameError' in child) {
        out.push({ kind: 'frame', text: `[frame${child.prefix ? ` f${child.prefix}` : ''}: not readable (${child.frameError})]` });
      } else {
        out.push({ kind: 'frame', text: `[frame f${child.frame.prefix}]` });
        flatten(child, out);
        out.push({ kind: 'frame', text: `[/frame f${child.frame.prefix}]` });
      }
    }
  }
  return out;
}

/** o200k averages about 3.6 characters per token on snapshot text; close enough for a budget. */
export function estimateTokens(s: string): number {
  return Math.ceil(s.length / 3.6);
}

/** A fence the page cannot forge: a fresh nonce per snapshot, and any look-alike in page text defused. */
export function untrusted(body: string): string {
  const nonce = randomBytes(3).toString('hex');
  const safe = body.replace(/<\/?page-content[^>]*>/gi, (m) => m.replace('<', '‹'));
  return `<page-content id=${nonce}>\n${safe}\n</page-content id=${nonce}>`;
}

export interface Budgeted {
  body: string;
  note?: string;
}

/** Fits lines into a token budget: drop page text first, then elements from the end, and say what went. */
export function applyBudget(lines: Line[], maxTokens: number | undefined, reserve: number): Budgeted {
  const full = lines.map((l) => l.text).join('\n');
  if (!maxTokens || estimateTokens(full) + reserve <= maxTokens) return { body: full };
  const budget = Math.max(0, maxTokens - reserve);
  const elementsAndFrames = lines.filter((l) => l.kind !== 'text');
  const textCount = lines.length - elementsAndFrames.length;
  const noText = elementsAndFrames.map((l) => l.text).join('\n');
  if (estimateTokens(noText) <= budget) {
    return { body: noText, note: `Over the ${maxTokens}-token budget: page text left out (${textCount} lines); all ${count(lines)} elements shown. Read text with browser_find or browser_extract, or raise maxTokens.` };
  }
  const kept: string[] = [];
  let used = 0;
  let shown = 0;
  for (const l of elementsAndFrames) {
    const t = estimateTokens(l.text) + 1;
    if (used + t > budget) break;
    kept.push(l.text);
    used += t;
    if (l.kind === 'element') shown++;
  }
  const total = count(lines);
  return {
    body: kept.join('\n'),
    note: `Over the ${maxTokens}-token budget: showing ${shown} of ${total} elements (the first in document order), no page text (${textCount} lines left out). For the rest use viewportOnly, a subtree ref, browser_find, or a larger maxTokens.`,
  };
}

function count(lines: Line[]): number {
  return lines.filter((l) => l.kind === 'element').length;
}
