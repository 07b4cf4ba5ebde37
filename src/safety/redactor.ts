/**
 * The one redactor: every form in which a secret value can reappear in text — raw, URL-encoded
 * (encodeURIComponent, and the browser's own encodings of a path, query, fragment, userinfo and
 * form body, `+` for spaces, upper- or lower-case escapes), HTML-escaped (`&amp;`, `&lt;`, `&#39;`…,
 * and the DOM's own serialisation), JSON-escaped, base64 (standard and URL-safe, also inside a longer
 * base64 text such as `btoa('user:' + value)`) and hex — is replaced by its label, and so are the
 * prefixes of a value a page sends as it is typed (`?q=s`, `?q=se`, … one request per keystroke).
 * Encodings a page makes up itself (reversed, XOR, split over requests) are not recognised.
 * Results, errors, audit fields, log lines and confirmation texts all pass through `redactText`.
 */

/** Values shorter than this are not scrubbed from text (a 1–2 character "secret" would shred every output). */
export const MIN_REDACT_LENGTH = 3;

const htmlEscapes = (v: string): string[] => {
  const named = v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return [
    named,
    named.replace(/&#39;/g, '&#x27;'),
    named.replace(/&quot;/g, '&#34;'),
    v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    // How the browser serialises the DOM (innerHTML, outerHTML): text escapes & < > (and nbsp), attributes & and ".
    v.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    v.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/"/g, '&quot;'),
  ];
};

/**
 * The WHATWG URL percent-encode sets (what the browser itself writes into a URL it parsed): a value
 * a page puts into a path, query, fragment or form body comes back in one of these spellings.
 */
const C0 = (c: number) => c < 0x20 || c > 0x7e;
const FRAGMENT = (c: number) => C0(c) || ' "<>`'.includes(String.fromCharCode(c));
const QUERY = (c: number) => C0(c) || ' "#<>'.includes(String.fromCharCode(c));
const SPECIAL_QUERY = (c: number) => QUERY(c) || c === 0x27;
const PATH = (c: number) => QUERY(c) || '?^`{}'.includes(String.fromCharCode(c));
const PATH_OLD = (c: number) => QUERY(c) || '?`{}'.includes(String.fromCharCode(c));
const USERINFO = (c: number) => PATH(c) || '/:;=@[\\]|'.includes(String.fromCharCode(c));
const COMPONENT = (c: number) => USERINFO(c) || '$%&+,'.includes(String.fromCharCode(c));
const FORM = (c: number) => !/[A-Za-z0-9*\-._]/.test(String.fromCharCode(c));

function percentEncode(value: string, set: (c: number) => boolean, spaceAsPlus = false): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (spaceAsPlus && c === 0x20) out += '+';
    else if (set(c)) for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ch;
  }
  return out;
}

/**
 * The base64 text of the value wherever it sits in a longer encoded string: for each of the three
 * byte alignments, the 4-character groups made of the value's bytes alone (the groups at either end
 * also hold the neighbours' bits and differ from text to text). Standard and URL-safe alphabets.
 */
export function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    // `k` foreign bytes before the value: whole groups of its own start at byte 3 (k > 0) and end before the last partial group.
    const start = k === 0 ? 0 : 3 - k;
    const whole = Math.floor((bytes.length - start) / 3) * 3;
    // Fewer than 6 bytes (8 characters) would turn up by chance in long base64 text (an image in a saved transcript).
    if (whole < 6) continue;
    const core = bytes.subarray(start, start + whole).toString('base64');
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Every spelling of one value to look for, longest first. */
export function spellings(value: string): string[] {
  const out = new Set<string>([value]);
  const enc = encodeURIComponent(value);
  out.add(enc);
  out.add(enc.replace(/%20/g, '+'));
  out.add(encodeURI(value));
  out.add(escape(value));
  for (const set of [FRAGMENT, QUERY, SPECIAL_QUERY, PATH, PATH_OLD, USERINFO, COMPONENT]) out.add(percentEncode(value, set));
  // In the path of an http(s) URL a backslash is a slash.
  if (value.includes('\\')) for (const set of [PATH, PATH_OLD]) out.add(percentEncode(value.replace(/\\/g, '/'), set));
  // application/x-www-form-urlencoded (a form GET's query, a POST body, URLSearchParams).
  out.add(percentEncode(value, FORM, true));
  for (const h of htmlEscapes(value)) out.add(h);
  out.add(JSON.stringify(value).slice(1, -1));
  // Base64 (in a URL its + / = come back percent-encoded) and hex.
  for (const b of base64Cores(value)) {
    out.add(b);
    out.add(encodeURIComponent(b));
  }
  const hex = Buffer.from(value, 'utf8').toString('hex');
  out.add(hex);
  out.add(hex.toUpperCase());
  // Lower-case percent escapes (some servers and browsers write %2f).
  for (const s of [...out]) if (/%[0-9A-F]{2}/.test(s)) out.add(s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...out].filter((s) => s.length >= MIN_REDACT_LENGTH).sort((a, b) => b.length - a.length);
}

/** Text with every spelling of every secret replaced by its label. */
export function redactText(text: string, secrets: Iterable<[value: string, label: string]>): string {
  if (!text) return text;
  let out = text;
  const list = [...secrets];
  const pairs: [string, string][] = [];
  for (const [value, label] of list) {
    if (!value || value.length < MIN_REDACT_LENGTH) continue;
    for (const s of spellings(value)) pairs.push([s, label]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  for (const [s, label] of pairs) if (out.includes(s)) out = out.split(s).join(label);
  for (const [value, label] of list) {
    if (value && value.length >= MIN_REDACT_LENGTH) out = redactTypedPrefixes(out, value, label);
  }
  return out;
}

/** Shortest prefix of a value treated as a leak when a page sends it as the whole of a URL parameter. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * A page that sends the field's value on every keystroke (`/suggest?q=s`, `?q=se`, `?q=sec`…) leaks
 * prefixes of the secret. A prefix is scrubbed where it is the whole value of a query or fragment
 * parameter (after `=`, up to `&`, `#`, a quote, a bracket, white space or the end), in any of the
 * URL spellings — not in running text, where a short prefix would be an ordinary word.
 */
function redactTypedPrefixes(text: string, value: string, label: string): string {
  if (!text.includes('=')) return text;
  const chars = [...value];
  const forms = new Set<string>();
  for (let n = chars.length - 1; n >= MIN_PREFIX_LENGTH; n--) {
    const prefix = chars.slice(0, n).join('');
    for (const f of [prefix, encodeURIComponent(prefix), percentEncode(prefix, FORM, true), percentEncode(prefix, SPECIAL_QUERY)]) {
      forms.add(f);
      if (/%[0-9A-F]{2}/.test(f)) forms.add(f.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    }
  }
  if (!forms.size) return text;
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(`(=)(?:${alternatives.join('|')})(?=$|[&#;"'<>()\\[\\]\\s])`, 'g'), `$1${label}`);
}
