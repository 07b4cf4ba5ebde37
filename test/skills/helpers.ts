import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SkillSpec {
  name: string;
  description: string;
  sites?: string[];
  allowedTools?: string[];
  risk?: string;
  steps: string;
}

export function skillFile(s: SkillSpec): string {
  const lines = ['---', `name: ${JSON.stringify(s.name)}`, `description: ${JSON.stringify(s.description)}`];
  if (s.sites) lines.push(`sites: ${JSON.stringify(s.sites)}`);
  if (s.allowedTools) lines.push(`allowed-tools: ${JSON.stringify(s.allowedTools)}`);
  if (s.risk) lines.push(`risk: ${JSON.stringify(s.risk)}`);
  return `${lines.join('\n')}\n---\n${s.steps}\n`;
}

/** Writes `<dir>/<slug>/SKILL.md`; returns the file path. */
export function writeSkill(dir: string, slug: string, s: SkillSpec | string): string {
  mkdirSync(join(dir, slug), { recursive: true });
  const file = join(dir, slug, 'SKILL.md');
  writeFileSync(file, typeof s === 'string' ? s : skillFile(s));
  return file;
}

export function tempSkillsDir(): string {
  return mkdtempSync(join(tmpdir(), 'ba-skills-'));
}

/** Finds `[N] <role> "<name…>"` in what a scripted model was sent, as a real model reads refs. */
export function refOf(text: string, role: string, name: string): string {
  const m = [...text.matchAll(new RegExp(`\\[(\\w+)\\] ${role} "${name}[^"]*"`, 'g'))].at(-1);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text.slice(-1500)}`);
  return m[1];
}
