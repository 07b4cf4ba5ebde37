// Runs in an isolated world of the page (bundled by esbuild's ?pagefn plugin): the live, rendered
// DOM is what the user sees, including content scripts rendered, so no HTML re-parsing in Node.
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { ignore } from '../ignore';

type Mode = 'markdown' | 'links' | 'tables';

function visible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

function markdown(): string {
  const clone = document.cloneNode(true) as Document;
  let html = '';
  let title = document.title;
  try {
    const article = new Readability(clone, { charThreshold: 200 }).parse();
    if (article?.content && (article.textContent ?? '').trim().length > 200) {
      html = article.content;
      title = article.title || title;
    }
  } catch (e) {
    ignore(e, 'fall back to the whole body');
  }
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(['script', 'style', 'noscript', 'template', 'iframe'] as any);
  const md = html ? td.turndown(html) : td.turndown(document.body?.innerHTML ?? '');
  return (title ? `# ${title}\n\n` : '') + md.replace(/\n{3,}/g, '\n\n').trim();
}

function links(): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const a of Array.from(document.querySelectorAll('a[href]')) as HTMLAnchorElement[]) {
    if (!visible(a)) continue;
    const text = (a.innerText || a.getAttribute('aria-label') || a.title || '').replace(/\s+/g, ' ').trim();
    const key = `${text}|${a.href}`;
    if (seen.has(key) || a.href.startsWith('javascript:')) continue;
    seen.add(key);
    out.push(`- [${text || '(no text)'}](${a.href})`);
  }
  return out.join('\n') || '(no links)';
}

function tables(): string {
  const result = (Array.from(document.querySelectorAll('table')) as HTMLTableElement[]).filter(visible).slice(0, 20).map((t) => {
    const rows = Array.from(t.rows).map((r) => Array.from(r.cells).map((c) => c.innerText.replace(/\s+/g, ' ').trim()));
    const headRow = t.tHead?.rows[0] ?? (t.rows[0] && Array.from(t.rows[0].cells).every((c) => c.tagName === 'TH') ? t.rows[0] : undefined);
    const headers = headRow ? Array.from(headRow.cells).map((c) => c.innerText.replace(/\s+/g, ' ').trim()) : undefined;
    const body = headRow ? rows.filter((_, i) => t.rows[i] !== headRow) : rows;
    const records = headers ? body.slice(0, 500).map((r) => Object.fromEntries(headers.map((h, i) => [h || `column${i + 1}`, r[i] ?? '']))) : body.slice(0, 500);
    return { caption: t.caption?.innerText.trim() || undefined, headers, rows: records, totalRows: body.length };
  });
  return result.length ? JSON.stringify(result, null, 1) : '(no tables)';
}

/** The main content as Markdown, the links, or the tables as JSON. */
export function extract(mode: Mode): string {
  return mode === 'links' ? links() : mode === 'tables' ? tables() : markdown();
}
