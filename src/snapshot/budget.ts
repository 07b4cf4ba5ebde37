// The page-level token budget: lines go out whole, in document order, until the budget is spent;
// then one marker says what is left and the exact call that reads on from there (`offset`).
// Nothing is cut inside a line except a paragraph too long for any budget, which is wrapped
// into consecutive lines first (at sentence or word ends), so every line can be reached.

/** Without `maxTokens`, a snapshot stays near this (o200k-calibrated estimate): clients cap one result near 25k. */
export const DEFAULT_MAX_TOKENS = 16_000;
/**
 * Without `fullText`, page text past about this many tokens of the page is folded: every element, heading,
 * landmark and frame line still follows, and one note says where the text stops and how to read it.
 * A model gets the top of a long article and every control of the page in a first look; the rest of
 * the text is one call away (offset) or searchable (browser_find).
 */
export const DEFAULT_FOLD_TEXT_AFTER = 3_000;
/** Text is folded only when that hides at least this many tokens: folding less would cost a call for little. */
export const MIN_FOLDED_TOKENS = 500;
/**
 * Nor before this many tokens of text were shown: a page whose menus fill the first 3,000 tokens (a news site's
 * link-heavy header) would otherwise show its headline and not a line of its article.
 */
export const MIN_TEXT_BEFORE_FOLD = 600;
/** Longer text lines are wrapped into pieces of about this many characters (~500 tokens). */
export const WRAP_CHARS = 2000;

const WORDISH = /[\p{L}\p{M}]+|\p{N}{1,3}|[^\s\p{L}\p{M}\p{N}]/gu;

/**
 * Tokens of `s` as o200k counts them, estimated without the tokenizer: about one per short word, per
 * group of up to three digits and per punctuation mark, plus one per newline; long words, accented
 * words and other scripts by their length. Errs a little high, so a budget holds.
 */
export function estimateTokens(s: string): number {
  // Most lines are ASCII: counted by one scan of char codes (the same counts as the pattern below, 5–10×
  // faster; a 20,000-element page has ~25,000 lines).
  if (!NON_ASCII.test(s)) return asciiTokens(s);
  let n = 0;
  for (const m of s.matchAll(WORDISH)) {
    const w = m[0];
    const c = w.charCodeAt(0);
    if (c < 0x80 && !NON_ASCII.test(w)) n += letterRun(w.length);
    else if (c >= 0x2e80) n += Math.ceil(w.length * 0.8); // CJK, kana, hangul: about a token per character
    else if (c >= 0x400) n += Math.ceil(w.length / 4); // Cyrillic, Arabic, Hebrew, Indic …
    else if (c >= 0x370) n += Math.ceil(w.length / 2.5); // Greek
    else n += Math.ceil(w.length / 3); // Latin with accents
  }
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Tokens of a run of ASCII letters: one for a short word, one per 7 letters for a long one; a run longer than
 * any word (a hash, base64, a letter repeated) is cut by o200k into pieces of 2–4, so it counts one per 2
 * (a page filled with such runs made a 16,000-token snapshot 54,000 real tokens).
 */
function letterRun(n: number): number {
  return n > 24 ? Math.ceil(n / 2) : n > 7 ? Math.ceil(n / 7) : 1;
}

/** `estimateTokens` of an ASCII string: letter runs (long ones by length), digit groups of up to three, other marks one each. */
function asciiTokens(s: string): number {
  let n = 0;
  let letters = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      letters++;
      if (digits) n += Math.ceil(digits / 3);
      digits = 0;
      continue;
    }
    if (letters) n += letterRun(letters);
    letters = 0;
    if (c >= 48 && c <= 57) {
      digits++;
      continue;
    }
    if (digits) n += Math.ceil(digits / 3);
    digits = 0;
    if (c === 10) n += 1; // a newline: one token, as in the pattern count
    else if (c !== 32 && (c < 9 || c > 13)) n += 1; // punctuation and other marks; whitespace is free
  }
  if (letters) n += letterRun(letters);
  if (digits) n += Math.ceil(digits / 3);
  return n;
}

/** Splits a long line into pieces of at most `max` characters, at a sentence end if one is near, else a space. */
export function wrapLine(text: string, max = WRAP_CHARS): string[] {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = -1;
    for (const m of window.matchAll(/[.!?。！？](?:["')\]]*)\s/g)) if (m.index! > max / 2) cut = m.index! + m[0].length;
    if (cut < 0) cut = window.lastIndexOf(' ') + 1;
    if (cut <= max / 4) cut = max;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

export interface BudgetLine {
  text: string;
  /** Element lines count towards "elements left". */
  element?: boolean;
  /** Page text that may be folded (not an element, heading, landmark or frame line). */
  foldable?: boolean;
}

export interface Fold {
  /** First folded line: reading on from here shows the page with all its text. */
  at: number;
  lines: number;
  tokens: number;
}

/**
 * Where to fold the page's text: the first text line past `after` tokens of lines once some text was shown
 * (MIN_TEXT_BEFORE_FOLD), when the text from there on is worth at least MIN_FOLDED_TOKENS. Undefined: nothing
 * to fold.
 */
export function foldPoint(lines: BudgetLine[], after: number): Fold | undefined {
  if (!(after > 0)) return undefined;
  let used = 0;
  let text = 0;
  let at = -1;
  for (let i = 0; i < lines.length; i++) {
    const t = estimateTokens(lines[i].text) + 1;
    if (lines[i].foldable && used + t > after && text >= Math.min(MIN_TEXT_BEFORE_FOLD, after)) {
      at = i;
      break;
    }
    used += t;
    if (lines[i].foldable) text += t;
  }
  if (at < 0) return undefined;
  let n = 0;
  let tokens = 0;
  for (let i = at; i < lines.length; i++) {
    if (!lines[i].foldable) continue;
    n++;
    tokens += estimateTokens(lines[i].text) + 1;
  }
  return tokens >= MIN_FOLDED_TOKENS ? { at, lines: n, tokens } : undefined;
}

export interface Page {
  body: string;
  /** The fold, when the page shown reached it (text lines from `fold.at` on were left out). */
  fold?: Fold;
  /** First line shown and one past the last, in the wrapped line list. */
  from: number;
  to: number;
  total: number;
  /** Estimated tokens and elements of the lines after `to`. */
  tokensLeft: number;
  elementsLeft: number;
}

/**
 * The lines from `offset` that fit `budget` tokens (at least one, so reading on always advances).
 * `lines` must already be wrapped (see `wrapLine`), so offsets mean the same lines on every call.
 */
export function takePage(lines: BudgetLine[], budget: number, offset = 0, fold?: Fold): Page {
  const from = Math.min(Math.max(0, offset), lines.length);
  const kept: string[] = [];
  let used = 0;
  let to = from;
  let folded = false;
  for (; to < lines.length; to++) {
    const line = lines[to];
    if (fold && to >= fold.at) {
      if (!folded) {
        const t = estimateTokens(FOLD_MARK) + 1;
        if (used + t > budget && to > from) break;
        kept.push(FOLD_MARK);
        used += t;
        folded = true;
      }
      if (line.foldable) continue;
    }
    const t = estimateTokens(line.text) + 1;
    if (used + t > budget && to > from) break;
    kept.push(line.text);
    used += t;
  }
  let tokensLeft = 0;
  let elementsLeft = 0;
  for (let i = to; i < lines.length; i++) {
    tokensLeft += estimateTokens(lines[i].text) + 1;
    if (lines[i].element) elementsLeft++;
  }
  return { body: kept.join('\n'), from, to, total: lines.length, tokensLeft, elementsLeft, ...(folded ? { fold } : {}) };
}

/** Where the text stops, inside the page's lines (the note after the page says how to read it). */
export const FOLD_MARK = '[… page text folded from here on; elements, headings and sections go on]';

/** The note after a page whose text was folded: how much was left out and the calls that read it. */
export function foldNote(p: Page, scope: string): string | undefined {
  if (!p.fold) return undefined;
  const f = p.fold;
  const shown = p.to < p.total ? 'elements, headings and sections are, up to the cut below' : 'every element, heading and section is';
  return `[Page text folded after line ${f.at}: ${f.lines} lines of text (~${f.tokens.toLocaleString('en-US')} tokens) are not shown; ${shown}. Read on: browser_snapshot with offset=${f.at}${scope} shows the page from there with all its text, fullText=true all of it; or search with browser_find.]`;
}

/** The marker after a page that does not reach the end: what is left and the call that reads it. */
export function continuationNote(p: Page, maxTokens: number, scope: string): string | undefined {
  if (p.to >= p.total) return undefined;
  const left = `${p.total - p.to} more lines (~${p.tokensLeft.toLocaleString('en-US')} tokens${p.elementsLeft ? `, ${p.elementsLeft} elements` : ''})`;
  return `[Cut by the ${maxTokens.toLocaleString('en-US')}-token budget after line ${p.to} of ${p.total}; ${left}. Read on: browser_snapshot with offset=${p.to}${scope}. Or search with browser_find, or read one part with ref.]`;
}

/** The header line of a page that does not start at the top. */
export function offsetNote(p: Page): string | undefined {
  if (!p.from) return undefined;
  return `Lines ${p.from + 1}–${p.to} of ${p.total} (continued from offset=${p.from}).`;
}
