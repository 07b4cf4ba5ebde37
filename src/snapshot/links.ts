import { ignore } from '../base/ignore';
// Where a link goes, as short as it can be told: same-origin paths relative to the page (`/news/world`),
// other origins without scheme and `www.` (`bbc.co.uk/news`), long paths cut after their first segments
// (`/2017/01/12/business/…`) and query strings left out — each shown in full only where it is what tells
// two links with the same name apart. Last path segments that only spell the link's own name
// (`/wiki/Max_Born` for "Max Born") say nothing new and become `…`; a same-origin link whose whole path
// spells its name shows no target. The full href is in browser_element_details.

/** Longest target shown; longer ones end in `…`. */
const MAX_TARGET = 90;
/** Longest query string shown (only where it tells same-named links apart). */
const MAX_QUERY = 40;
/** A path is cut (`…`) after the segments that fit in this many characters (numbers not counted), unless the rest is needed. */
const SHORT_PATH = 16;

interface Parsed {
  base: string;
  query: string;
  hash: string;
  samePage: boolean;
  sameOrigin: boolean;
}

/** A root-relative path (and query, fragment) the URL parser leaves as written: no dot segments, nothing it would encode. */
const PLAIN_PATH = /^(\/(?![/\\])[\w\-~/:@!$&()*+,;=%]*)(\?[\w\-~/:@!$&()*+,;=%?]*)?(#[\w\-~/:@!$&()*+,;=%?]*)?$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;
const BAD_ESCAPE = /%(?![0-9a-f]{2})/i;

function parse(href: string, page: URL | undefined, against = page): Parsed | undefined {
  // Most links of a big page are paths on the page's own origin: read without a URL parse each.
  const m = page && against && (against === page || against.origin === page.origin) ? PLAIN_PATH.exec(href) : null;
  if (m && !DOT_SEGMENT.test(m[1]) && !BAD_ESCAPE.test(href)) {
    const query = m[2] && m[2] !== '?' ? m[2] : '';
    const hash = m[3] && m[3] !== '#' ? m[3] : '';
    return { base: m[1], query, hash, samePage: m[1] === page!.pathname && query === page!.search, sameOrigin: true };
  }
  let u: URL;
  try {
    u = new URL(href.trim(), against);
  } catch {
    return undefined;
  }
  if (u.protocol === 'javascript:') return undefined;
  // mailto:/tel: say whom they reach; a share link's prefilled subject and body are in the details.
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { base: u.protocol + u.pathname, query: u.search, hash: '', samePage: false, sameOrigin: false };
  const sameOrigin = !!page && u.origin === page.origin;
  const base = sameOrigin ? u.pathname : u.host.replace(/^www\./, '') + (u.pathname === '/' ? '' : u.pathname);
  const samePage = sameOrigin && u.pathname === page!.pathname && u.search === page!.search;
  return { base, query: u.search, hash: u.hash, samePage, sameOrigin };
}

const EXTENSION = /\.(?:s?html?|php|aspx?|jsp|cgi)$/i;

function wordsOf(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * `base` with its last path segments replaced by `…` where they only spell words of the link's name
 * (`/wiki/…` for "Max Born"). `''` when the link is same-origin and its whole path spells the name:
 * the target would repeat the name.
 */
function dropSpelledSegments(p: Parsed, name: string): string {
  const said = new Set(wordsOf(name));
  if (!said.size) return p.base;
  const slash = p.sameOrigin ? 0 : p.base.indexOf('/');
  if (slash < 0) return p.base;
  const segs = p.base.slice(slash + 1).split('/');
  if (segs[segs.length - 1] === '') segs.pop();
  let keep = segs.length;
  while (keep > 0 && spells(segs[keep - 1], said)) keep--;
  if (keep === segs.length) return p.base;
  if (p.sameOrigin && keep === 0) return '';
  return p.base.slice(0, slash) + '/' + [...segs.slice(0, keep), '…'].join('/');
}

function spells(seg: string, said: Set<string>): boolean {
  let text = seg;
  try {
    text = decodeURIComponent(seg);
  } catch (e) {
    ignore(e, 'keep the raw segment');
  }
  const w = wordsOf(text.replace(EXTENSION, ''));
  return w.length > 0 && w.every((x) => said.has(x));
}

function capTarget(s: string): string {
  return s.length > MAX_TARGET ? s.slice(0, MAX_TARGET - 1) + '…' : s;
}

/** `host/first/segments/…`: whole segments up to SHORT_PATH characters of path (at least one segment, cut if huge). */
function shorten(base: string): string {
  const slash = base.indexOf('/');
  const host = slash < 0 ? base : base.slice(0, slash);
  const path = slash < 0 ? '' : base.slice(slash);
  if (path.length <= SHORT_PATH + 2) return base;
  const segs = path.split('/').slice(1);
  let kept = '';
  // Dates and numbers (`/2017/01/12`) do not use up the length: the word after them names the section.
  let counted = 0;
  for (const seg of segs) {
    const numeric = /^\d+$/.test(seg);
    if (kept && !numeric && counted + 1 + seg.length > SHORT_PATH) return host + kept + '/…';
    if (seg.length > SHORT_PATH) return host + kept + '/' + seg.slice(0, SHORT_PATH - 4) + '…';
    kept += '/' + seg;
    if (!numeric) counted += 1 + seg.length;
  }
  return base;
}

/**
 * Display targets for the links of one document, in the order given (`undefined` when a link goes
 * nowhere: `javascript:`, a bare `#`). `pageUrl` is the document's URL, `baseUrl` the one its links are
 * resolved against (a `<base href>`; the page's URL without one).
 */
export function linkTargets(links: Array<{ name: string; href: string }>, pageUrl: string, baseUrl?: string): Array<string | undefined> {
  let page: URL | undefined;
  let base: URL | undefined;
  try {
    page = new URL(pageUrl);
    base = baseUrl ? new URL(baseUrl) : page;
  } catch {
    page = undefined;
  }
  const parsed = links.map((l) => parse(l.href, page, base));
  const short = parsed.map((p, i) => (p ? shorten(dropSpelledSegments(p, links[i].name)) : ''));
  // Links with the same name and the same short target: the full path, then the query, tells them apart.
  const groups = new Map<string, number[]>();
  parsed.forEach((p, i) => {
    if (!p || (p.samePage && p.hash)) return;
    const k = links[i].name + '\u0000' + short[i];
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  });
  // A link to a place on this page says only where on it (a bare `#` goes nowhere).
  const out: Array<string | undefined> = parsed.map((p, i) => {
    if (!p) return undefined;
    if (p.samePage && p.hash) return p.hash === '#' ? undefined : p.hash;
    if (!short[i] && p.base !== '/') return undefined;
    return short[i] || '/';
  });
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const bases = new Set(g.map((i) => parsed[i]!.base));
    const queries = new Set(g.map((i) => parsed[i]!.base + parsed[i]!.query));
    // Links that go to the same place need nothing to tell them apart.
    if (queries.size === 1) continue;
    for (const i of g) {
      const p = parsed[i]!;
      let t = bases.size > 1 ? p.base : short[i];
      if (queries.size > bases.size && p.query) t = p.base + (p.query.length > MAX_QUERY ? p.query.slice(0, MAX_QUERY - 1) + '…' : p.query);
      out[i] = capTarget(t || '/');
    }
  }
  return out;
}

/**
 * A page's own address in a result, as short as a link target: relative to the page it came from
 * (`/search?q=widget`), another origin without scheme and `www.`; past MAX_TARGET characters its path is
 * cut after the first segments and its query after MAX_QUERY. browser_tabs shows it whole.
 */
export function shortUrl(url: string, from?: string): string {
  let page: URL | undefined;
  try {
    page = from ? new URL(from) : undefined;
  } catch {
    page = undefined;
  }
  const p = parse(url, page);
  if (!p) return capTarget(url);
  const whole = (p.base || '/') + p.query + p.hash;
  if (whole.length <= MAX_TARGET) return whole;
  const query = p.query.length > MAX_QUERY ? `${p.query.slice(0, MAX_QUERY - 1)}…` : p.query;
  return capTarget(shorten(p.base) + query);
}
