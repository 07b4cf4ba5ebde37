// browser_find: searches the whole page — every text line in full, element lines, and the full values of
// fields whose lines show them cut — not the budgeted snapshot. Long paragraphs come back as a snippet
// around the match, with the offset a snapshot reads on from.
import type { Tab } from '../session/tab';
import { BrowserAgentError } from '../base/errors';
import { WRAP_CHARS, wrapLine } from './budget';
import { untrusted, type Line } from './format';
import { hiddenMatches } from './hiddenFind';
import { markShown } from './shown';
import { elementsFor } from './snapshot';
import { ignore } from '../base/ignore';

/** Closed parts of the page named in a result at most. */
const HIDDEN_SHOWN = 10;
/** Text lines longer than this come back as a snippet around the match. */
const SNIPPET = 240;

type Matcher = (s: string) => { at: number; len: number } | null;

function matcher(query: string, regex?: boolean): Matcher {
  if (regex) {
    let re: RegExp;
    try {
      re = new RegExp(query, 'i');
    } catch (e) {
      throw new BrowserAgentError('INVALID_INPUT', `Invalid regular expression: ${(e as Error).message}`, 'Escape special characters or search by words without regex.');
    }
    return (s) => {
      const m = re.exec(s);
      return m ? { at: m.index, len: m[0].length } : null;
    };
  }
  const phrase = query.toLowerCase().trim().replace(/\s+/g, ' ');
  const words = phrase.split(' ');
  // The snippet centres on the whole query where it occurs as written, else on its longest word.
  const longest = [...words].sort((a, b) => b.length - a.length)[0];
  return (s) => {
    const l = s.toLowerCase();
    for (const w of words) if (!l.includes(w)) return null;
    const at = l.indexOf(phrase);
    return at >= 0 ? { at, len: phrase.length } : { at: l.indexOf(longest), len: longest.length };
  };
}

/** `…words around the match…`, cut at spaces, when the line is long. */
export function snippet(text: string, at: number, len: number, size = SNIPPET): string {
  if (text.length <= size) return text;
  let from = Math.max(0, at - Math.floor((size - len) / 2));
  let to = Math.min(text.length, from + size);
  from = Math.max(0, to - size);
  if (from > 0) {
    const sp = text.indexOf(' ', from);
    if (sp >= 0 && sp < at) from = sp + 1;
  }
  if (to < text.length) {
    const sp = text.lastIndexOf(' ', to);
    if (sp > at + len) to = sp;
  }
  return (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
}

/** Matching element lines and text lines, with the nearest ref and the snapshot line to read on from. */
export async function findInPage(tab: Tab, query: string, opts: { regex?: boolean; limit?: number } = {}): Promise<string> {
  tab.assertNoDialog();
  if (!query || !query.trim()) throw new BrowserAgentError('INVALID_INPUT', 'The search query is empty.', 'Give words to look for, or a regular expression with regex: true.');
  const match = matcher(query, opts.regex);
  const limit = Math.max(1, Math.min(opts.limit ?? 30, 500));
  const { lines } = await elementsFor(tab);
  const hits: string[] = [];
  let total = 0;
  let lastRef: Line | undefined;
  /** The element lines this result names: shown to the model, so their refs can be used. */
  const named: Line[] = [];
  let lineNo = 0; // in the wrapped numbering browser_snapshot's offset uses
  for (const l of lines) {
    const pieces = l.kind === 'text' && l.text.length > WRAP_CHARS ? wrapLine(l.text) : undefined;
    let here = lineNo;
    lineNo += pieces ? pieces.length : 1;
    if (l.ref) lastRef = l;
    if (l.kind === 'frame' || l.kind === 'section') continue;
    const hit = hitText(l, match);
    if (!hit) continue;
    total++;
    if (hits.length >= limit) continue;
    // A wrapped paragraph: the line of the piece that holds the match is where reading on should start.
    if (pieces) {
      const i = pieces.findIndex((p) => match(p));
      if (i > 0) here += i;
    }
    const near = l.kind === 'text' ? lastRef : l;
    if (near) named.push(near);
    hits.push(l.kind === 'text' ? `${hit} (line ${here}${lastRef ? `, after [${lastRef.ref}]` : ''})` : hit);
  }
  markShown(tab, named);
  const hidden = await hiddenMatches(tab, match, snippet, HIDDEN_SHOWN).catch((e) => ignore(e, 'hidden matches are a nicety; the found ones stand', []));
  const behind = hidden.length ? `\nIn parts of the page that are closed (open them with their control to read and act there):\n${untrusted(hidden.slice(0, HIDDEN_SHOWN).map((h) => `${h.text} — behind ${h.opener}`).join('\n'))}` : '';
  if (!total) return `No ${hidden.length ? 'shown ' : ''}element or text matches ${JSON.stringify(query)}.${hidden.length ? behind : ' Try fewer words, or browser_snapshot.'}`;
  const more = total > hits.length ? `\n${total - hits.length} more matches; raise limit or refine the query.` : '';
  return `${total} match${total === 1 ? '' : 'es'} for ${JSON.stringify(query)} (line N: browser_snapshot with offset=N reads from there):\n${untrusted(hits.join('\n'))}${more}${behind}`;
}

function hitText(l: Line, match: Matcher): string | null {
  const m = match(l.text);
  if (m) return l.kind === 'text' ? snippet(l.text, m.at, m.len) : l.text;
  if (l.full) {
    const v = match(l.full);
    if (v) return `${l.text} — full value: ${JSON.stringify(snippet(l.full, v.at, v.len))}`;
  }
  return null;
}
