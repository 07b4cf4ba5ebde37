// Where a link goes, as short as it can be told: same-origin paths relative to the page (`/news/world`),
// other origins without scheme and `www.` (`bbc.co.uk/news`), long paths cut after their first segments
// (`/2017/01/12/business/…`) and query strings left out — each shown in full only where it is what tells
// two links with the same name apart. The full href is in browser_element_details.

/** Longest target shown; longer ones end in `…`. */
const MAX_TARGET = 90;
/** A path is cut (`…`) after the segments that fit in this many characters, unless the rest is needed. */
const SHORT_PATH = 24;

interface Parsed {
  base: string;
  query: string;
  hash: string;
  samePage: boolean;
}

function parse(href: string, page: URL | undefined): Parsed | undefined {
  let u: URL;
  try {
    u = new URL(href, page);
  } catch {
    return undefined;
  }
  if (u.protocol === 'javascript:') return undefined;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { base: u.href, query: '', hash: '', samePage: false };
  const sameOrigin = !!page && u.origin === page.origin;
  const base = sameOrigin ? u.pathname : u.host.replace(/^www\./, '') + (u.pathname === '/' ? '' : u.pathname);
  const samePage = sameOrigin && u.pathname === page!.pathname && u.search === page!.search;
  return { base, query: u.search, hash: u.hash, samePage };
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
  for (const seg of segs) {
    if (kept && kept.length + 1 + seg.length > SHORT_PATH) return host + kept + '/…';
    if (seg.length > SHORT_PATH) return host + kept + '/' + seg.slice(0, SHORT_PATH - 4) + '…';
    kept += '/' + seg;
  }
  return base;
}

/**
 * Display targets for the links of one document, in the order given (`undefined` when a link goes
 * nowhere: `javascript:`, a bare `#`). `pageUrl` is the document's URL.
 */
export function linkTargets(links: Array<{ name: string; href: string }>, pageUrl: string): Array<string | undefined> {
  let page: URL | undefined;
  try {
    page = new URL(pageUrl);
  } catch {
    page = undefined;
  }
  const parsed = links.map((l) => parse(l.href, page));
  const short = parsed.map((p) => (p ? shorten(p.base) : ''));
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
    return short[i] || '/';
  });
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const bases = new Set(g.map((i) => parsed[i]!.base));
    const queries = new Set(g.map((i) => parsed[i]!.base + parsed[i]!.query));
    for (const i of g) {
      const p = parsed[i]!;
      let t = bases.size > 1 ? p.base : short[i];
      if (queries.size > bases.size && p.query) t = p.base + p.query;
      out[i] = capTarget(t || '/');
    }
  }
  return out;
}
