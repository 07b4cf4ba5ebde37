// Arguments a tool does not take. zod's objects drop unknown keys without a word, so a model that guessed a
// parameter (`append: true` on browser_type, which replaces by default) would be told its call worked while the
// guess did nothing — and here, did the opposite. Such calls are refused by name before anything runs.
import type { z } from 'zod';

/** Wrappers whose inner schema holds the object: optional, nullable, default, readonly, catch, pipe (transform). */
function unwrap(s: z.ZodType): z.ZodType {
  for (let i = 0; i < 8; i++) {
    const def = (s as any).def;
    if (def?.innerType) s = def.innerType;
    else if (def?.type === 'pipe') s = def.in;
    else break;
  }
  return s;
}

export interface UnknownArg {
  /** `append`, `fields.0.label` */
  path: string;
  /** The keys the object there takes. */
  known: string[];
}

/** Keys of `input` the schema does not declare, at any depth of objects and arrays (unions are not looked into). */
export function unknownArgs(schema: z.ZodType, input: unknown, path = ''): UnknownArg[] {
  const s = unwrap(schema);
  const def = (s as any).def;
  if (def?.type === 'object' && input && typeof input === 'object' && !Array.isArray(input)) {
    const shape: Record<string, z.ZodType> = (s as any).shape;
    const out: UnknownArg[] = [];
    for (const [k, v] of Object.entries(input)) {
      const at = path ? `${path}.${k}` : k;
      if (!(k in shape)) out.push({ path: at, known: Object.keys(shape) });
      else out.push(...unknownArgs(shape[k], v, at));
    }
    return out;
  }
  if (def?.type === 'array' && Array.isArray(input)) return input.flatMap((v, i) => unknownArgs(def.element, v, path ? `${path}.${i}` : String(i)));
  return [];
}

/** "browser_type has no parameter "append" (it takes ref, text, clear, submit, slowly)." */
export function describeUnknownArgs(tool: string, bad: UnknownArg[]): string {
  const first = bad.slice(0, 3).map((b) => `${JSON.stringify(b.path.slice(0, 80))} (${b.path.includes('.') ? 'that object takes' : 'it takes'} ${b.known.join(', ')})`);
  return `${tool} has no parameter ${first.join('; ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}. Nothing was done.`;
}
