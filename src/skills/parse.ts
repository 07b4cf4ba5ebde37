import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Skill, SkillSource } from './types';

/** A list written as YAML list or as one string (`a, b` or `a b`), as people write front matter. */
const list = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[,\s]+/)).map((s) => s.trim()).filter(Boolean));

const risk = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join('\n') : v));

/**
 * Our own fields. They belong under `metadata:` (the Agent Skills format's map for a client's fields, the only place
 * VS Code's skill validation accepts them); written at the top level, as skills before it were, they still count.
 */
const OwnFields = z.object({
  sites: list.optional(),
  'allowed-tools': list.optional(),
  risk: risk.optional(),
});

const FrontMatter = OwnFields.extend({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().min(1).max(1000),
  metadata: OwnFields.passthrough().optional(),
});

/** Both places given: a site in either applies; a tool must be allowed in both (narrowing never widens). */
function merged(f: z.infer<typeof FrontMatter>): { sites: string[]; allowedTools?: string[]; risk?: string } {
  const m = f.metadata ?? {};
  const sites = [...new Set([...(m.sites ?? []), ...(f.sites ?? [])])];
  const [a, b] = [m['allowed-tools'], f['allowed-tools']].map((t) => (t?.length ? t : undefined));
  const allowedTools = a && b ? a.filter((t) => b.includes(t)) : (a ?? b);
  const why = [m.risk, f.risk].map((r) => r?.trim()).filter(Boolean).join('\n');
  return { sites, allowedTools, risk: why || undefined };
}

export const MAX_SKILL_BYTES = 64 * 1024;

/** Splits `---\nyaml\n---\nbody`; throws a readable error when the front matter is missing or broken. */
export function splitFrontMatter(text: string): { data: unknown; body: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!m) throw new Error('no front matter: the file must start with a "---" line, the YAML fields, and another "---" line');
  let data: unknown;
  try {
    data = parseYaml(m[1]);
  } catch (e) {
    throw new Error(`front matter is not valid YAML (put values containing ": " in quotes): ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  return { data, body: m[2].trim() };
}

/** A SKILL.md's text → a Skill. Throws an Error whose message says what to fix. */
export function parseSkill(text: string, path: string, source: SkillSource): Skill {
  if (Buffer.byteLength(text) > MAX_SKILL_BYTES) throw new Error(`larger than ${MAX_SKILL_BYTES / 1024} KB`);
  const { data, body } = splitFrontMatter(text);
  const fm = FrontMatter.safeParse(data ?? {});
  if (!fm.success) throw new Error(fm.error.issues.map((i) => `${i.path.join('.') || 'front matter'}: ${i.message}`).join('; '));
  if (!body) throw new Error('no steps: write the procedure below the front matter');
  const f = fm.data;
  return { path, name: f.name, description: f.description, ...merged(f), body, source };
}
