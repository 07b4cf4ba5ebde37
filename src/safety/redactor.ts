/**
 * The one redactor: every form in which a secret value can reappear in text — raw, URL-encoded
 * (`%40`, and `+` for spaces in form bodies), HTML-escaped (`&amp;`, `&lt;`, `&#39;`…) and
 * JSON-escaped — is replaced by its label. Results, errors, audit fields, log lines and
 * confirmation texts all pass through `redactText`.
 */

/** Values shorter than this are not scrubbed from text (a 1–2 character "secret" would shred every output). */
export const MIN_REDACT_LENGTH = 3;

const htmlEscapes = (v: string): string[] => {
  const named = v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return [named, named.replace(/&#39;/g, '&#x27;'), named.replace(/&quot;/g, '&#34;'), v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)];
};

/** Every spelling of one value to look for, longest first. */
export function spellings(value: string): string[] {
  const out = new Set<string>([value]);
  const enc = encodeURIComponent(value);
  out.add(enc);
  out.add(enc.replace(/%20/g, '+'));
  out.add(encodeURI(value));
  out.add(escape(value));
  for (const h of htmlEscapes(value)) out.add(h);
  out.add(JSON.stringify(value).slice(1, -1));
  // Lower-case percent escapes (some servers and browsers write %2f).
  out.add(enc.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...out].filter((s) => s.length >= MIN_REDACT_LENGTH).sort((a, b) => b.length - a.length);
}

/** Text with every spelling of every secret replaced by its label. */
export function redactText(text: string, secrets: Iterable<[value: string, label: string]>): string {
  if (!text) return text;
  let out = text;
  const pairs: [string, string][] = [];
  for (const [value, label] of secrets) {
    if (!value || value.length < MIN_REDACT_LENGTH) continue;
    for (const s of spellings(value)) pairs.push([s, label]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  for (const [s, label] of pairs) if (out.includes(s)) out = out.split(s).join(label);
  return out;
}
