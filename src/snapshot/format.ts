// Turns extracted items into the text a model reads: one line per element, the page text whole,
// landmark sections and frames marked, all page-derived text inside one clearly delimited untrusted block.
import { fenceLines } from '../base/untrusted';
import type { ElementItem, PageItem } from '../page/protocol';
import { refString, type FrameResult } from './frames';
import { linkTargets } from './links';
import type { LineParts } from './lineChange';

export interface Line {
  kind: 'element' | 'text' | 'frame' | 'section';
  text: string;
  ref?: string;
  prefix?: number;
  role?: string;
  name?: string;
  /** Full value of a field whose line shows it cut (browser_find searches it). */
  full?: string;
  /** The frame's document the element's ref belongs to. */
  doc?: string;
  /** An element line's parts, for saying what changed (lineChange.ts). */
  parts?: LineParts;
}

/** `[12] button "Submit"`, `[3] button (search icon)`, `[4] textbox name=q`, `[5] button value=Search`, `[7] link "News" →/news`. */
export function elementHead(ref: string, it: ElementItem, target?: string): string {
  let s = `[${ref}] ${it.role}`;
  if (it.name) s += ` ${JSON.stringify(it.name)}`;
  if (it.hint) s += /^(name|value|id)=/.test(it.hint) ? ` ${it.hint}` : ` (${it.hint})`;
  if (target) s += ` →${target}`;
  return s;
}

/** The state words after the head: `disabled`, `value="ada"`, `covered-by [3]`. */
export function elementStates(it: ElementItem): string {
  return [it.st, it.cov ? `covered-by ${it.cov}` : ''].filter(Boolean).join(' ');
}

/** `[12] button "Submit" disabled`: the head and its states. */
export function elementLine(ref: string, it: ElementItem, target?: string): string {
  const st = elementStates(it);
  return elementHead(ref, it, target) + (st ? ` ${st}` : '');
}

function isElement(it: PageItem): it is ElementItem {
  return 'id' in it;
}

export function flatten(r: FrameResult, out: Line[] = []): Line[] {
  const links = r.items.filter((it): it is ElementItem => isElement(it) && it.href !== undefined);
  const shown = linkTargets(links.map((l) => ({ name: l.name || l.hint || '', href: l.href! })), r.url, r.base);
  const targets = new Map<ElementItem, string | undefined>(links.map((l, i) => [l, shown[i]]));
  const start = out.length;
  for (const it of r.items) {
    if (isElement(it)) {
      const ref = refString(r.frame.prefix, it.id);
      // A coverer named by ref number in a frame needs the frame prefix too.
      const fixed = it.cov && r.frame.prefix && /^\[\d+\]$/.test(it.cov) ? { ...it, cov: `[${refString(r.frame.prefix, Number(it.cov.slice(1, -1)))}]` } : it;
      const head = elementHead(ref, fixed, targets.get(it));
      const states = elementStates(fixed);
      const parts = { head, states, label: it.name ? JSON.stringify(it.name) : it.hint ? head.slice(head.indexOf(' ') + 1) : it.role };
      out.push({ kind: 'element', text: states ? `${head} ${states}` : head, ref, prefix: r.frame.prefix, role: it.role, name: it.name || it.hint || '', full: it.full, doc: r.doc, parts });
    } else if ('t' in it) {
      out.push({ kind: 'text', text: it.t });
    } else if ('sec' in it) {
      out.push({ kind: 'section', text: `[${it.sec}]` });
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
  tidySections(out, start);
  return out;
}

/**
 * Section lines are markers, not a tree: a section runs until the next marker. An end marker is kept
 * only where content outside the section follows (of a run of end markers, the outermost), and a
 * section with nothing in it is left out.
 */
function tidySections(lines: Line[], from: number) {
  const isSec = (l: Line | undefined) => l?.kind === 'section';
  const isEnd = (l: Line | undefined) => isSec(l) && l!.text.startsWith('[/');
  // Empty sections: a start directly followed by its end.
  for (let i = lines.length - 2; i >= from; i--) {
    if (isSec(lines[i]) && !isEnd(lines[i]) && isEnd(lines[i + 1]) && lines[i + 1].text === `[/${lines[i].text.slice(1).split(/[ \]]/)[0]}]`) lines.splice(i, 2);
  }
  for (let i = lines.length - 2; i >= from; i--) {
    // A section that only holds one of the same kind (`[nav]` `[nav]`) says nothing twice.
    if (isSec(lines[i]) && !isEnd(lines[i]) && lines[i + 1].text === lines[i].text) lines.splice(i, 1);
  }
  for (let i = lines.length - 1; i >= from; i--) {
    if (!isEnd(lines[i])) continue;
    const next = lines[i + 1];
    if (!next || isEnd(next) || isSec(next)) lines.splice(i, 1);
  }
}

/** A fence the page cannot forge: a fresh nonce per snapshot, and any look-alike in page text defused. */
export function untrusted(body: string): string {
  return fenceLines([body]);
}
