// node bench/formatIdeas.mjs <dump folder> <rows.json> — what pure format changes would save, measured on
// the snapshots `npm run bench:snapshot` wrote (BENCH_DUMP=<folder> BENCH_JSON=<rows.json>): each idea is
// applied to our first call of every corpus page, recounted with the o200k tokenizer, and the per-page ratio
// to Playwright MCP's tokens summarised as the bench does (median, pages at ≤ 0.4×). Nothing here changes
// what the snapshot carries; ideas marked "lossy for parsing" make lines harder to read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const [dir, rowsFile] = process.argv.slice(2);
if (!dir || !rowsFile) {
  console.error('usage: node bench/formatIdeas.mjs <BENCH_DUMP folder> <BENCH_JSON file>');
  process.exit(2);
}
const rows = JSON.parse(readFileSync(rowsFile, 'utf8')).filter((r) => !r.page.startsWith('synthetic') && r.theirs?.tokens);
const isEl = (l) => /^\[(f\d+:)?\d+\] /.test(l);
const refOf = (l) => /^\[([^\]]+)\]/.exec(l)[1];

const ideas = {
  'as shipped': (ls) => ls,
  // The page's most frequent other host once in the header (`~ = aclu.org`), `→~/path` on its links.
  'alias for the most linked host': (ls) => {
    const n = new Map();
    for (const l of ls) {
      const m = isEl(l) && / →([a-z0-9.-]+\.[a-z]{2,})(?=[/ ]|$)/.exec(l);
      if (m) n.set(m[1], (n.get(m[1]) ?? 0) + 1);
    }
    const [host, count] = [...n].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (!host || count < 5) return ls;
    return [`Links: ~ = ${host}`, ...ls.map((l) => (isEl(l) ? l.split(' →' + host).join(' →~') : l))];
  },
  // A run of 4+ element lines repeating an earlier run (role, name, target) as one pointer line.
  'repeated link blocks as a pointer': (ls) => {
    const key = ls.map((l) => (isEl(l) ? l.replace(/^\[[^\]]+\] /, '') : null));
    const first = new Map();
    key.forEach((k, i) => k && !first.has(k) && first.set(k, i));
    const out = [];
    for (let i = 0; i < ls.length; ) {
      const p = key[i] ? first.get(key[i]) : i;
      let n = 0;
      while (p < i && key[i + n] && key[p + n] === key[i + n] && p + n < i) n++;
      if (n >= 4) {
        out.push(`[${refOf(ls[i])}–${refOf(ls[i + n - 1])}: same ${n} as lines ${p + 1}–${p + n}]`);
        i += n;
      } else out.push(ls[i++]);
    }
    return out;
  },
  'no role word on links with a target': (ls) => ls.map((l) => (isEl(l) && / →/.test(l) ? l.replace(/^(\[[^\]]+\]) link /, '$1 ') : l)),
  'names without quotes (lossy for parsing)': (ls) => ls.map((l) => (isEl(l) ? l.replace(/ "((?:[^"\\]|\\.)*)"/, (_, n) => ' ' + n) : l)),
  'refs without brackets (lossy for parsing)': (ls) => ls.map((l) => (isEl(l) ? l.replace(/^\[([^\]]+)\]/, '$1') : l)),
  'no link targets at all (drops information)': (ls) => ls.map((l) => (isEl(l) ? l.replace(/ →\S+/, '') : l)),
};
ideas['the three that keep lines unambiguous together'] = (ls) =>
  ideas['no role word on links with a target'](ideas['repeated link blocks as a pointer'](ideas['alias for the most linked host'](ls)));
ideas['all of the above but dropping targets'] = (ls) => {
  for (const [name, f] of Object.entries(ideas)) if (name !== 'as shipped' && !/^(no link targets|all|floor|the three)/.test(name)) ls = f(ls);
  return ls;
};

// The floor of any format that carries the same words: page text lines and element names, nothing else.
ideas['floor: only the text and the names'] = (ls) =>
  ls.filter((l) => !/^(URL: |\d+ interactive elements|<\/?page-content|\[\/?(nav|main|header|footer|aside|region|form|search|frame)\b)/.test(l)).map((l) => (isEl(l) ? (/ "((?:[^"\\]|\\.)*)"/.exec(l)?.[1] ?? '') : l));

const firstCall = (page) => readFileSync(join(dir, page.replace(/\.html$/, '.txt')), 'utf8').split(/\n(?=URL: )/)[0].split('\n');
const pages = rows.map((r) => ({ r, lines: firstCall(r.page) }));
const base = pages.map(({ lines }) => countTokens(lines.join('\n')));
console.log(`${rows.length} pages; per-page ratio to Playwright MCP's tokens`);
for (const [name, f] of Object.entries(ideas)) {
  const ratios = [];
  let total = 0;
  pages.forEach(({ r, lines }) => {
    const t = countTokens(f(lines).join('\n'));
    total += t;
    ratios.push(t / r.theirs.tokens);
  });
  ratios.sort((a, b) => a - b);
  // The median as bench:snapshot reports it (the upper middle page of an even count).
  const mid = ratios[Math.min(ratios.length - 1, Math.floor(0.5 * (ratios.length - 1) + 0.5))];
  const saved = 1 - total / base.reduce((a, b) => a + b, 0);
  console.log(`${name.padEnd(44)} median ${mid.toFixed(3)}, ${String(ratios.filter((x) => x <= 0.4).length).padStart(2)} pages ≤ 0.4×, total tokens ${(saved * -100).toFixed(1)}%`);
}
