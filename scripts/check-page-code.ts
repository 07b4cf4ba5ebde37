/**
 * The page-code rule (issue 29): JavaScript that runs in the page is written in src/page/, typed, and bundled
 * (`?inpage` scripts, `?pagefn` functions; esbuild.mjs); no other file writes page code in a string.
 * Outside src/page/ it reports
 *  - page code in a string: a string or template literal whose text (each `${…}` read as a name `_$`) parses as
 *    JavaScript and holds a function or arrow function, or a call that names the page (`document`, `window`,
 *    `globalThis`, `self`, `navigator`, `location`): `(el) => el.click()`, `document.title.trim()`. Prose, CSS
 *    selectors, URLs, regex sources and messages like "Skills (3)" do not parse so or hold neither;
 *  - a literal where code goes to the page: in the `expression`, `functionDeclaration` or `source` of a
 *    `send('Runtime.evaluate' | 'Runtime.callFunctionOn' | 'Page.addScriptToEvaluateOnNewDocument', …)`, and in
 *    the code argument of the helpers that send it (`callOnElement`, `elementFrom`, `evalInFrame`, a tab's
 *    `evaluate`), any string or template literal other than a bare name or number (`'document'`, `'0'`: values,
 *    not code); in `pageCall(fn, …args)` only `fn` is code, its arguments are data sent as JSON. What goes there
 *    comes from a page-code import (`pageCall(fns.x, …)`, `fns.x`).
 * NOT_PAGE_CODE names the few strings of JavaScript that never reach a page, with why.
 * Run by test/ci/pageCode.test.ts (so by npm test), or by hand: npx tsx scripts/check-page-code.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const SINKS = new Set(['Runtime.evaluate', 'Runtime.callFunctionOn', 'Page.addScriptToEvaluateOnNewDocument']);
const CODE_FIELDS = new Set(['expression', 'functionDeclaration', 'source']);
/** Helpers that send their argument at this index to the page as code. */
const CODE_ARGS: Record<string, number> = { callOnElement: 1, elementFrom: 1, evalInFrame: 2, evaluate: 0 };
/** Names whose call marks text as page code. */
const PAGE_NAMES = new Set(['document', 'window', 'globalThis', 'self', 'navigator', 'location']);
/** Files outside src/page/ whose JavaScript in strings is not page code. */
export const NOT_PAGE_CODE: Record<string, string> = {
  'session/watchdog.ts': 'the watchdog is a Node process (node -e), not page code',
  'sandbox/run.ts': "browser_run_script's sandbox glue: runs inside QuickJS (src/sandbox/), never in a page",
  'tools/script/api.ts': "the script's prelude (browser.<fn>, refsOf, …): runs inside QuickJS, never in a page",
};

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The literal's text with each `${…}` read as a name. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `_$${s.literal.text}`).join('');
  return undefined;
}

/** True when `text` parses as JavaScript holding a function, or a call that names the page. */
export function isPageCode(text: string): boolean {
  if (!text.includes('(')) return false;
  // As statements, else as one expression (`function () {…}` alone is no statement).
  const parse = (t: string) => ts.createSourceFile('literal.js', t, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const clean = (f: ts.SourceFile) => !(f as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
  let sf = parse(text);
  if (!clean(sf)) sf = parse(`(${text}\n)`);
  if (!clean(sf)) return false;
  let fn = false, call = false, page = false;
  const visit = (n: ts.Node): void => {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n)) fn = true;
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) call = true;
    if (ts.isIdentifier(n) && PAGE_NAMES.has(n.text)) page = true;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return fn || (call && page);
}

/** A bare name or number: what a CDP sink may take as a literal (`'document'`, `'0'`). */
const isValue = (text: string) => /^\s*([A-Za-z_$][\w$]*|\d+)\s*$/.test(text);

/** Every problem as one line (`src/file.ts:line: …`); empty when src/ keeps the rule. */
export function checkPageCode(src: string): string[] {
  const problems: string[] = [];
  for (const file of sources(src)) {
    const name = relative(src, file).split(sep).join('/');
    if (name.startsWith('page/') || NOT_PAGE_CODE[name]) continue;
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const at = (n: ts.Node) => `src/${name}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    const visit = (n: ts.Node): void => {
      if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
      const noLiteral = (m: ts.Node, where: string): void => {
        const text = literalText(m);
        if (text !== undefined && !isValue(text)) problems.push(`${at(m)}: ${where} is written here as a string; write it in src/page/ and import it (?pagefn)`);
        // pageCall(fn, …args): the function is code; its arguments are data, sent as JSON.
        else if (ts.isCallExpression(m) && ts.isIdentifier(m.expression) && m.expression.text === 'pageCall') {
          if (m.arguments[0]) noLiteral(m.arguments[0], where);
        } else if (text === undefined) ts.forEachChild(m, (c) => noLiteral(c, where));
      };
      if (ts.isCallExpression(n)) {
        const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name.text : ts.isIdentifier(n.expression) ? n.expression.text : '';
        const [method, params] = n.arguments;
        if (callee === 'send' && method && ts.isStringLiteral(method) && SINKS.has(method.text) && params && ts.isObjectLiteralExpression(params)) {
          for (const p of params.properties) {
            if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && CODE_FIELDS.has(p.name.text)) noLiteral(p.initializer, `the ${p.name.text} of ${method.text}`);
          }
        }
        const i = CODE_ARGS[callee];
        if (i !== undefined && n.arguments[i]) noLiteral(n.arguments[i], `the code ${callee} sends`);
      }
      const text = literalText(n);
      if (text !== undefined) {
        if (isPageCode(text)) problems.push(`${at(n)}: page code in a string: ${JSON.stringify(text.slice(0, 60))}; write it in src/page/ and import it (?pagefn)`);
        return;
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return [...new Set(problems)];
}

if (require.main === module) {
  const problems = checkPageCode(join(__dirname, '..', 'src'));
  for (const p of problems) console.log(p);
  console.log(problems.length ? `${problems.length} places write page code outside src/page/` : 'no in-page code outside src/page/');
  process.exitCode = problems.length ? 1 : 0;
}
