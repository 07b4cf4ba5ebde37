import type { TargetFingerprint } from '../contract/types';
import type { LoadedTask } from './reader';
import { REDACTED, SECRET_PLACEHOLDER, type StepRecord } from './types';

/** ARIA roles Playwright's getByRole accepts (the ones a snapshot reports for actionable elements). */
const PW_ROLES = new Set([
  'alert', 'button', 'checkbox', 'combobox', 'dialog', 'gridcell', 'heading', 'img', 'link', 'listbox', 'listitem',
  'menu', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'searchbox', 'slider',
  'spinbutton', 'switch', 'tab', 'tabpanel', 'textbox', 'treeitem', 'cell', 'columnheader', 'rowheader', 'navigation',
]);

const q = (s: string) => JSON.stringify(s);

/** A Playwright locator expression for a recorded target: role+name first (how people write tests), then CSS, then XPath. */
export function locatorFor(t: TargetFingerprint | undefined): string | undefined {
  if (!t) return undefined;
  const role = t.role?.toLowerCase();
  if (role && PW_ROLES.has(role) && t.name) return `page.getByRole(${q(role)}, { name: ${q(t.name)}, exact: true })`;
  if (t.selector) return `page.locator(${q(t.selector)})`;
  if (t.xpath) return `page.locator(${q(`xpath=${t.xpath}`)})`;
  return undefined;
}

/**
 * The recorded value as code: a redacted secret becomes an environment variable the person sets
 * (BA_SECRET_1, …), a `{{secret:NAME}}` placeholder becomes process.env.NAME.
 */
function valueExpr(v: unknown, env: string[]): string {
  if (v === REDACTED) {
    const name = `BA_SECRET_${env.filter((e) => e.startsWith('BA_SECRET_')).length + 1}`;
    env.push(name);
    return `process.env.${name} ?? ''`;
  }
  const text = String(v ?? '');
  if (!new RegExp(SECRET_PLACEHOLDER.source).test(text)) return q(text);
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(SECRET_PLACEHOLDER.source, 'g'))) {
    if (m.index! > last) parts.push(q(text.slice(last, m.index)));
    if (!env.includes(m[1])) env.push(m[1]);
    parts.push(`(process.env[${q(m[1])}] ?? '')`);
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push(q(text.slice(last)));
  return parts.join(' + ');
}

function stepLines(s: StepRecord, env: string[]): string[] {
  const input = (s.input ?? {}) as Record<string, any>;
  const loc = locatorFor(s.target);
  const needLoc = (body: (l: string) => string[]) => (loc ? body(loc) : [`// step ${s.step} (${s.tool}): no locator was recorded for its target`]);
  switch (s.tool) {
    case 'browser_navigate':
      return [`await page.goto(${q(String(input.url))});`, ...(s.after.title ? [`await expect(page).toHaveTitle(${q(s.after.title)});`] : [])];
    case 'browser_navigate_back':
      return ['await page.goBack();'];
    case 'browser_navigate_forward':
      return ['await page.goForward();'];
    case 'browser_reload':
      return ['await page.reload();'];
    case 'browser_click':
      return needLoc((l) => [`await ${l}.${input.doubleClick ? 'dblclick' : 'click'}(${input.button && input.button !== 'left' ? `{ button: ${q(input.button)} }` : ''});`]);
    case 'browser_hover':
      return needLoc((l) => [`await ${l}.hover();`]);
    case 'browser_type': {
      const value = valueExpr(input.text, env);
      return needLoc((l) => [
        input.append || input.clear === false ? `await ${l}.pressSequentially(${value});` : `await ${l}.fill(${value});`,
        ...(input.submit ? [`await ${l}.press('Enter');`] : []),
      ]);
    }
    case 'browser_select_option': {
      const values = ([] as unknown[]).concat(input.values ?? input.value ?? []).map((v) => q(String(v)));
      return needLoc((l) => [`await ${l}.selectOption([${values.join(', ')}]);`]);
    }
    case 'browser_press_key':
      return [`await page.keyboard.press(${q(String(input.key))});`];
    case 'browser_wait':
      return input.text ? [`await expect(page.getByText(${q(String(input.text))}).first()).toBeVisible();`] : [`// step ${s.step}: wait (${JSON.stringify(input)}) — Playwright auto-waits`];
    default:
      return [`// step ${s.step} (${s.tool}) has no Playwright equivalent here; recorded input: ${JSON.stringify(input)}`];
  }
}

/** Steps worth exporting: those that ran and changed something (reads are left out). */
const READ_TOOLS = /^browser_(snapshot|find|element_details|screenshot|extract|tabs|evaluate)$/;

/**
 * A runnable `@playwright/test` spec for a recorded task. Secrets become environment variables
 * (BA_SECRET_1, … for redacted values; NAME for `{{secret:NAME}}`); CHROME_PATH points the test at a local Chrome/Chromium when
 * Playwright's own browsers are not installed.
 */
export function toPlaywrightTest(task: LoadedTask & { turns?: LoadedTask[]; origin?: Map<number, { turn: number; step: number }> }): { code: string; secretEnv: string[] } {
  const env: string[] = [];
  const body: string[] = [];
  let turn = 0;
  for (const s of task.steps) {
    // A thread's turns, each headed by the message that started it.
    const from = task.turns && task.turns.length > 1 ? task.origin?.get(s.step) : undefined;
    if (from && from.turn !== turn) {
      turn = from.turn;
      body.push(`  // Turn ${turn}: ${(task.turns![turn - 1].start?.goal ?? '').replace(/\n/g, ' ')}`);
    }
    // Left out, but said so: a reader of the spec sees every step that changed or could have changed the page.
    if (s.decision === 'refused' || s.decision === 'blocked' || s.decision === 'needs-confirmation') {
      const why = s.decision === 'refused' ? 'declined by you' : s.decision === 'blocked' ? 'blocked by the safety policy' : 'waiting for a confirmation no one could give';
      body.push(`  // step ${s.step} (${s.tool}) not exported: it was ${why} when recorded`);
      continue;
    }
    if (!s.ok) {
      body.push(`  // step ${s.step} (${s.tool}) not exported: it failed when recorded (${s.errorCode ?? 'error'})`);
      continue;
    }
    if (s.tool === 'browser_evaluate') {
      const script = String((s.input as { script?: unknown } | undefined)?.script ?? '').replace(/\s+/g, ' ').slice(0, 200);
      body.push(`  // step ${s.step} (browser_evaluate) not exported: it ran a script in the page, which may have changed it;`, `  // add it with page.evaluate() if the test needs it: ${script}`);
      continue;
    }
    if (READ_TOOLS.test(s.tool)) continue;
    // A script's calls are the steps exported above it; the script itself is no step of a test.
    if (s.tool === 'browser_run_script') {
      body.push(`  // step ${s.step} (browser_run_script): the script whose calls are the steps above`);
      continue;
    }
    body.push(`  // step ${s.step}: ${(s.action ?? s.tool).replace(/\n/g, ' ')}${s.inScript ? ` (script call ${s.inScript.call}${s.inScript.line ? `, line ${s.inScript.line}` : ''})` : ''}`);
    for (const line of stepLines(s, env)) body.push(`  ${line}`);
  }
  const goal = task.start?.goal ?? task.id;
  const code = [
    // The spec lands in a workspace without @playwright/test or Node's types: keep it out of the Problems panel;
    // Playwright's own runner compiles it.
    `// @ts-nocheck`,
    `// Exported by Browser Agent from task ${task.start?.taskId ?? task.id}${task.start?.ts ? ` (${task.start.ts})` : ''}.`,
    `// Goal: ${goal.replace(/\n/g, ' ')}`,
    ...(env.length ? [`// Set ${env.join(', ')} to the secret values the log does not contain.`] : []),
    `import { test, expect } from '@playwright/test';`,
    ``,
    `test.use({ launchOptions: process.env.CHROME_PATH ? { executablePath: process.env.CHROME_PATH } : {} });`,
    ``,
    `test(${q(goal.slice(0, 120))}, async ({ page }) => {`,
    ...body,
    `});`,
    ``,
  ].join('\n');
  return { code, secretEnv: env };
}
