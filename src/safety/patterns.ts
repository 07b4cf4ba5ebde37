import { ignore } from '../base/ignore';
/**
 * Phrase lists from settings compiled to one regular expression each. Entries are plain phrases
 * (case-insensitive, whole words for alphabetic scripts, substrings for CJK) or `/regex/`.
 */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const cache = new Map<string, RegExp | null>();

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phraseSource(entry: string): string | null {
  const regex = /^\/(.+)\/$/.exec(entry);
  if (regex) {
    try {
      new RegExp(regex[1], 'iu');
      return `(?:${regex[1]})`;
    } catch {
      return null; // an invalid user regex is skipped, never throws in the policy
    }
  }
  // Separators inside a phrase match any run of spaces, dashes or underscores.
  const body = entry.trim().split(/[\s_-]+/).map(escape).join('[\\s_-]*');
  if (CJK.test(entry)) return body;
  return `(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`;
}

export function compilePhrases(entries: readonly string[]): RegExp | null {
  const key = entries.join('\u0000');
  if (cache.has(key)) return cache.get(key)!;
  // Longest first, so a reason quotes "pay now" rather than "pay".
  const sources = [...entries].sort((a, b) => b.length - a.length).map(phraseSource).filter((s): s is string => !!s);
  const re = sources.length ? new RegExp(sources.join('|'), 'iu') : null;
  if (cache.size > 64) cache.clear();
  cache.set(key, re);
  return re;
}

/** The first phrase of `entries` found in `text`, as it appears there. */
export function findPhrase(text: string | undefined, entries: readonly string[]): string | undefined {
  if (!text) return undefined;
  const m = compilePhrases(entries)?.exec(text);
  return m ? m[0] : undefined;
}

/**
 * URL words match between non-letters so `/checkout/`, `pay.example.com` and `?next=/login` count
 * but `paypal`-like words must be listed themselves; a plural `s` is allowed.
 */
export function findUrlWord(url: string | undefined, entries: readonly string[]): string | undefined {
  if (!url) return undefined;
  let subject = url;
  try {
    const u = new URL(url);
    subject = `${u.hostname}${decodeURIComponent(u.pathname)}${decodeURIComponent(u.search)}${u.hash}`;
  } catch (e) {
    ignore(e, 'not a URL: match the raw text');
  }
  const words = entries.map((e) => (/^\/.+\/$/.test(e) ? e : `/(?<![a-z0-9])${escape(e.toLowerCase())}(?:e?s)?(?![a-z])/`));
  return findPhrase(subject.toLowerCase(), words);
}
