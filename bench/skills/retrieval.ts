// npm run bench:skills — retrieval quality of the skill library on a written set of skills and
// queries (bench/skills/corpus.ts): precision@3, recall@3, hit@1, and the tokens the retrieved
// skills add to a prompt (o200k), against putting every skill in the prompt.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { stringify } from 'yaml';
import { SkillLibrary } from '../../src/skills/library';
import { skillsText } from '../../src/skills/present';
import { QUERIES, SKILLS } from './corpus';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ba-bench-skills-'));
  try {
    for (const s of SKILLS) {
      mkdirSync(join(dir, s.slug));
      writeFileSync(join(dir, s.slug, 'SKILL.md'), `---\n${stringify({ name: s.name, description: s.description, sites: s.sites })}---\n${s.steps}\n`);
    }
    const lib = new SkillLibrary([{ path: dir, source: 'workspace' }]);
    const t0 = performance.now();
    await lib.reload();
    const indexMs = performance.now() - t0;
    if (lib.problems.length || lib.skills.length !== SKILLS.length) throw new Error(`corpus did not load: ${JSON.stringify(lib.problems)}`);
    const slugOf = new Map(lib.skills.map((s) => [s.path, s.path.split(/[\\/]/).at(-2)!]));
    const precision: number[] = [];
    const recall: number[] = [];
    const hit1: number[] = [];
    const tokens: number[] = [];
    const times: number[] = [];
    const misses: string[] = [];
    const counts: number[] = [];
    for (const q of QUERIES) {
      const s = performance.now();
      const hits = await lib.search({ query: q.q, url: q.url, limit: 3 });
      times.push(performance.now() - s);
      const got = hits.map((h) => slugOf.get(h.skill.path)!);
      counts.push(got.length);
      const rel = got.filter((g) => q.want.includes(g)).length;
      precision.push(got.length ? rel / got.length : 0);
      recall.push(rel / Math.min(3, q.want.length));
      hit1.push(q.want.includes(got[0]) ? 1 : 0);
      tokens.push(hits.length ? encode(skillsText(hits)).length : 0);
      if (!q.want.includes(got[0])) misses.push(`  ${JSON.stringify(q.q)}${q.url ? ` @ ${q.url}` : ''}: want ${q.want.join('/')}, got ${got.join(', ') || 'nothing'}`);
    }
    const all = encode(skillsText(lib.skills.map((skill) => ({ skill, score: 0, siteMatch: false })))).length;
    const zh = SKILLS.filter((s) => /[\u4e00-\u9fff]/.test(s.name)).length;
    console.log(`Skill retrieval: ${SKILLS.length} skills (${zh} Chinese), ${QUERIES.length} queries (${QUERIES.filter((q) => q.url).length} with the current page), Orama BM25 + site match`);
    console.log(`| metric | value |\n|---|---:|`);
    console.log(`| precision@3 (relevant among returned, at most 3) | ${mean(precision).toFixed(3)} |`);
    console.log(`| recall@3 | ${mean(recall).toFixed(3)} |`);
    console.log(`| hit@1 (best result is a wanted skill) | ${mean(hit1).toFixed(3)} |`);
    console.log(`| skills returned per query (mean) | ${mean(counts).toFixed(2)} |`);
    console.log(`| tokens added to the prompt, median / p90 | ${median(tokens)} / ${p90(tokens)} |`);
    console.log(`| tokens if every skill were in the prompt | ${all} |`);
    console.log(`| search time, median / p90 | ${median(times).toFixed(2)} ms / ${p90(times).toFixed(2)} ms |`);
    console.log(`| index build (${SKILLS.length} files) | ${indexMs.toFixed(0)} ms |`);
    if (misses.length) console.log(`Best result not wanted (${misses.length}):\n${misses.join('\n')}`);
    lib.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
