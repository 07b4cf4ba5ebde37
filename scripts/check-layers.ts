/**
 * The import rule of src/ (src/layers.json): a top-level folder imports only the folders its layer `uses`,
 * each listed below it, so no folder imports one above it and no two import each other; no file imports
 * itself through others. Run by test/ci/layers.test.ts (so by npm test), or by hand:
 *   npx tsx scripts/check-layers.ts          (exit 1 and one line per problem)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Layer { folder: string; uses: string[]; holds: string }
export interface LayerRules { entries: string[]; layers: Layer[] }

/** Relative specifiers of `import … from`, `export … from`, `import '…'` and `import('…')`. */
const SPEC = /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"](\.[^'"]*)['"]|\bimport\s*\(\s*['"](\.[^'"]*)['"]\s*\)|\bimport\s+['"](\.[^'"]*)['"]/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `../x/y`, `./page/z.ts?inpage`, `../snapshot` (its index.ts) → the file, or undefined outside the tree. */
function resolveSpec(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, '').replace(/\.[jt]sx?$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** Every problem as one line; empty when src/ keeps the rule. */
export function checkLayers(src: string, rules: LayerRules): string[] {
  const problems: string[] = [];
  const rank = new Map(rules.layers.map((l, i) => [l.folder, i]));
  for (const [i, l] of rules.layers.entries()) {
    for (const u of l.uses) if (!((rank.get(u) ?? Infinity) < i)) problems.push(`src/layers.json: ${l.folder} uses ${u}, which is not a layer listed above it`);
  }
  const folders = readdirSync(src).filter((n) => statSync(join(src, n)).isDirectory());
  for (const f of folders) if (!rank.has(f)) problems.push(`src/${f}/ is in no layer: add it to src/layers.json`);
  for (const l of rules.layers) if (!folders.includes(l.folder)) problems.push(`src/layers.json: layer ${l.folder} has no folder src/${l.folder}/`);
  const top = (file: string) => { const p = relative(src, file).split(sep); return p.length > 1 ? p[0] : undefined; };
  const graph = new Map<string, string[]>();
  for (const file of sources(src)) {
    const name = relative(src, file).split(sep).join('/');
    const from = top(file);
    if (!from && !rules.entries.includes(name)) problems.push(`src/${name}: only entry points (${rules.entries.join(', ')}) live at the top of src/; move it into a layer`);
    const edges: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(SPEC)) {
      const target = resolveSpec(file, m[1] ?? m[2] ?? m[3]);
      if (!target || !target.startsWith(src + sep)) continue;
      edges.push(target);
      const to = top(target);
      const shown = `src/${name} imports src/${relative(src, target).split(sep).join('/')}`;
      if (!to) { problems.push(`${shown}: nothing imports an entry point`); continue; }
      if (!from || from === to) continue;
      const layer = rules.layers.find((l) => l.folder === from);
      if (layer && rank.has(to) && !layer.uses.includes(to)) {
        const why = rank.get(to)! > rank.get(from)! ? `${to} is above ${from}` : `${to} is not in ${from}'s uses`;
        problems.push(`${shown}: ${why} (src/layers.json). Move the code down, pass it in as a parameter, or change the rule`);
      }
    }
    graph.set(file, edges);
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle: ${cycle.map((f) => `src/${relative(src, f).split(sep).join('/')}`).join(' → ')}`);
  return problems;
}

/** Files that import each other, directly or through others (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do { w = stack.pop()!; c.push(w); } while (w !== v);
    if (c.length > 1) out.push(c.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** CONTRIBUTING.md's Layout block, written from the rule file. */
export function layoutBlock(rules: LayerRules): string {
  const width = Math.max(...rules.layers.map((l) => l.folder.length)) + 7;
  return [...rules.layers].reverse().map((l) => `${`src/${l.folder}/`.padEnd(width)}${l.holds}`).join('\n');
}

export function readRules(root: string): LayerRules {
  return JSON.parse(readFileSync(join(root, 'src', 'layers.json'), 'utf8')) as LayerRules;
}

if (require.main === module) {
  const root = resolve(__dirname, '..');
  const problems = checkLayers(join(root, 'src'), readRules(root));
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('src/ keeps its layers (src/layers.json)');
}
