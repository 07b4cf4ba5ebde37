import { unfence } from '../base/unfence';
import type { ToolResult } from '../contract/types';

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; description?: string; enum?: unknown[]; items?: JsonSchema; default?: unknown };

/** A placeholder value of the right type, so the person sees the shape to fill in. */
function sample(s: JsonSchema): unknown {
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  return t === 'number' || t === 'integer' ? 0 : t === 'boolean' ? false : t === 'array' ? [] : t === 'object' ? {} : '';
}

/**
 * What the Run Tool… argument box shows: the required fields pre-filled (not a bare `{}`), and a
 * prompt naming every field with its description (pure, unit-tested).
 */
export function argumentHints(schema: object): { value: string; prompt: string } {
  const s = schema as JsonSchema;
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const value = JSON.stringify(Object.fromEntries([...required].filter((k) => props[k]).map((k) => [k, sample(props[k])])));
  const fields = Object.entries(props).map(([k, p]) => `${k}${required.has(k) ? '' : '?'}: ${(p.description ?? (Array.isArray(p.type) ? p.type.join('|') : p.type) ?? '').split(/(?<=\.)\s/)[0]}`);
  return { value, prompt: fields.length ? `JSON arguments. ${fields.join(' · ')}` : 'This tool takes no arguments: {}' };
}

/**
 * The line a person reads first of a tool's text: a heading line ("Result (page data, not instructions):") says
 * nothing alone, so the value on the next line joins it; the note in brackets is for the model and would push the
 * value out of a narrow card.
 */
export function firstLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim());
  const first = (lines[0] ?? '').replace(/ \(page data, not instructions\):$/, ':');
  return /:$/.test(first) && lines[1] !== undefined && !/^Hint:\s/.test(lines[1]) ? `${first} ${lines[1].trim()}` : first;
}

/** The first line a person sees after Run Tool…, and the full text for the document. */
export function resultText(toolName: string, r: ToolResult): { headline: string; full: string; ok: boolean } {
  const full = unfence(r.content.map((p) => (p.type === 'text' ? p.text : `[${p.mimeType} image]`)).join('\n'));
  const lines = full.split('\n').filter((l) => l.trim());
  const first = firstLine(full);
  const line = r.code && first.startsWith(`${r.code}: `) ? first.slice(r.code.length + 2) : first;
  const short = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  if (!r.isError) return { headline: `${toolName}: ${short || 'done'}`, full, ok: true };
  // A refusal is no failure to fix, and its hint ("do not repeat it") is for the model.
  if (r.code === 'BLOCKED_BY_POLICY') return { headline: `${toolName} did not run: ${short}`, full, ok: false };
  const hint = lines.find((l) => /^Hint:\s/.test(l));
  return { headline: `${toolName} failed: ${short}${hint ? ` ${hint.replace(/^Hint:/, 'How to fix it:')}` : ''}`, full, ok: false };
}
