/**
 * Page-content fences (`<page-content id=…>` … `</page-content id=…>`, see untrusted.ts) are for the
 * model. A person reading a result in the chat panel, Run Tool… or a step page sees the text without
 * them; marker imitations inside stay rewritten (`‹page-content`), so nothing else is removed.
 */
const OPEN = /<page-content id=[0-9a-f]+(?: source="[^"]*")?>\n?/g;
const CLOSE = /\n?<\/page-content id=[0-9a-f]+>/g;

export function unfence(text: string): string;
export function unfence(text: string | undefined): string | undefined;
export function unfence(text: string | undefined): string | undefined {
  return text === undefined ? undefined : text.replace(OPEN, '').replace(CLOSE, '');
}

/** The same through a JSON value's strings (a model may copy fenced text into a tool's input). */
export function unfenceDeep(v: unknown): unknown {
  if (typeof v === 'string') return unfence(v);
  if (Array.isArray(v)) return v.map(unfenceDeep);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unfenceDeep(x)]));
  return v;
}
