import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditDirFromArgs } from '../../src/audit/mcp';
import { locatorFor, toPlaywrightTest } from '../../src/audit/playwright';
import { frameWords, recordedTarget } from '../../src/audit/frame';
import { stepDescription, stepHtml, stepLabel, taskDescription, taskLabel, taskRowDescription } from '../../src/audit/present';
import { loadTask, LOG_FILE, summarizeTask } from '../../src/audit/reader';
import { promises as fsp } from 'node:fs';
import { AuditRecorder } from '../../src/audit/recorder';
import { redactInput, scrub } from '../../src/audit/redact';
import { fingerprintMismatch } from '../../src/audit/relocate';
import { replayTask } from '../../src/audit/replay';
import { REDACTED, type StepRecord } from '../../src/audit/types';
import { findTool } from '../../src/tools/registry';

const step = (over: Partial<StepRecord>): StepRecord => ({
  type: 'step', step: 1, ts: '2026-11-22T10:00:00.000Z', tool: 'browser_click', input: {}, before: {}, after: {},
  risk: 'auto', decision: 'auto', ok: true, durationMs: 12, ...over,
});

describe('audit: redaction, presentation, export text, ordering', () => {
  it('redacts secret fields, secret-named keys and fill-form entries, and scrubs encoded copies', () => {
    const r = redactInput({ ref: '5', text: 'p@ss word!' }, { message: 'm', secret: true });
    assert.deepEqual(r.value, { ref: '5', text: REDACTED });
    assert.deepEqual(r.secrets, ['p@ss word!']);
    const f = redactInput({ fields: [{ ref: '1', value: 'ann' }, { ref: '2', type: 'password', value: 'pw-1234' }], apiKey: 'k-999999' });
    assert.deepEqual(f.value, { fields: [{ ref: '1', value: 'ann' }, { ref: '2', type: 'password', value: REDACTED }], apiKey: REDACTED });
    assert.deepEqual(redactInput({ ref: '5', text: 'hello' }).value, { ref: '5', text: 'hello' });
    assert.equal(scrub('/done?pw=p%40ss+word!&x=p%40ss%20word!', ['p@ss word!']), `/done?pw=${REDACTED}&x=${REDACTED}`);
  });

  it('writes steps in step order when they finish out of order, and ends idempotently', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ba-order-'));
    try {
      const rec = new AuditRecorder({ root });
      const task = rec.startTask('order');
      let release!: () => void;
      const slow = new Promise<void>((r) => (release = r));
      const first = task.recordStep(async () => {
        await slow;
        return { ...step({}), tool: 'slow' } as any;
      });
      const second = task.recordStep(async () => ({ ...step({}), tool: 'fast' }) as any);
      setTimeout(release, 50);
      assert.deepEqual(await Promise.all([first, second]), [1, 2]);
      await task.end('success');
      await task.end('failure');
      await assert.rejects(task.recordStep(async () => step({}) as any), /has ended/);
      const t = await loadTask(task.dir);
      assert.deepEqual(t.steps.map((s) => `${s.step}:${s.tool}`), ['1:slow', '2:fast']);
      assert.equal(t.end?.outcome, 'success');
      assert.equal(readFileSync(join(task.dir, LOG_FILE), 'utf8').split('\n').filter(Boolean).length, 4);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('summarises a long finished log from its first and last lines, an unfinished one by reading it all', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ba-summary-'));
    try {
      const rec = new AuditRecorder({ root });
      const task = rec.startTask('long task', { source: 'mcp' });
      for (let i = 0; i < 300; i++) void task.recordStep(async () => ({ ...step({}), result: 'x'.repeat(1000) }) as any);
      await task.end('failure');
      const size = (await fsp.stat(join(task.dir, LOG_FILE))).size;
      assert.ok(size > 300_000);
      const fast = await summarizeTask(task.dir);
      assert.deepEqual({ goal: fast.goal, steps: fast.steps, outcome: fast.outcome, source: fast.source, truncated: fast.truncated }, { goal: 'long task', steps: 300, outcome: 'failure', source: 'mcp', truncated: false });
      const text = readFileSync(join(task.dir, LOG_FILE), 'utf8');
      await fsp.writeFile(join(task.dir, LOG_FILE), text.slice(0, text.lastIndexOf('{"type":"task_end"') - 500));
      const cut = await summarizeTask(task.dir);
      assert.deepEqual({ steps: cut.steps, outcome: cut.outcome, truncated: cut.truncated }, { steps: 299, outcome: undefined, truncated: true });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('describes tasks and steps for the history view and escapes the details page', () => {
    assert.equal(taskDescription({ id: 'x', dir: '/x', goal: 'g', startedAt: '2026-11-22T10:05:00.000Z', outcome: 'success', steps: 3, truncated: false }, 'UTC'), 'Done · 3 steps · 22 Nov, 10:05');
    assert.equal(taskDescription({ id: 'x', dir: '/x', goal: 'g', startedAt: '2026-11-22T10:05:00.000Z', outcome: 'cancelled', status: 'stopped', source: 'chat', steps: 2, truncated: false }, 'UTC'), 'Stopped by you · 2 steps · Chat · 22 Nov, 10:05');
    assert.equal(taskDescription({ id: 'x', dir: '/x', goal: 'g', steps: 1, truncated: true }, 'UTC'), 'Log cut off · 1 step');
    // The tree row leads with the outcome and step count (the end of a row is cut at the default sidebar width).
    const failed = { id: 'x', dir: '/x', goal: 'Open https://www.example.org/shop and  buy', startedAt: '2026-11-22T10:05:00.000Z', outcome: 'failure', source: 'replay', steps: 1, truncated: false };
    assert.equal(taskLabel(failed), 'Could not finish · 1 step: Open example.org/shop and buy');
    assert.equal(taskRowDescription(failed, 'UTC'), 'Replay · 22 Nov, 10:05');
    assert.equal(taskLabel({ id: 'x', dir: '/x', goal: 'g', steps: 2, truncated: true }), 'Log cut off · 2 steps: g');
    const refused = step({ risk: 'confirm', decision: 'refused', rule: 'sensitive-url', ok: false, errorCode: 'BLOCKED_BY_POLICY', result: 'BLOCKED_BY_POLICY: The user declined browser_click.\nHint: x' });
    assert.equal(stepLabel(refused), '1. Declined by you: browser_click');
    assert.equal(stepDescription(refused), 'browser_click · 12 ms');
    // A failing step leads with why: the label is what stays visible at the default sidebar width.
    const lost = step({ ok: false, action: 'Typing into textbox "Email"', errorCode: 'TARGET_NOT_FOUND', result: 'TARGET_NOT_FOUND: no single element matches textbox "Email"\nHint: x' });
    assert.equal(stepLabel(lost), '1. Failed: no single element matches textbox "Email"');
    assert.equal(stepDescription(lost), 'Typing into textbox "Email" · browser_click · 12 ms');
    assert.equal(stepDescription(step({ risk: 'confirm', decision: 'allowed' })), 'browser_click · you allowed it · 12 ms');
    assert.equal(stepDescription(step({})), 'browser_click · 12 ms');
    const html = stepHtml(step({ action: 'Click <b>', target: { role: 'button', name: '"x"<script>' }, screenshots: { after: 'step-0001-after.jpg' } }), (f) => `vscode-resource:/t/${f}`, 'vscode-resource:');
    assert.ok(!html.includes('<script>') && !html.includes('<b>'));
    assert.match(html, /<img src="vscode-resource:\/t\/step-0001-after\.jpg"/);
    assert.match(html, /img-src vscode-resource:;/);
  });

  it('the step page gives the whole reason of a failure; the tree row a short one', () => {
    const reason = `cannot find textbox "Your name" again: ${'no single element matches it '.repeat(8)}(no textbox "Your name" is on the page)`;
    const lost = step({ ok: false, errorCode: 'TARGET_NOT_FOUND', result: `TARGET_NOT_FOUND: ${reason}\nReplay stopped at this step.` });
    assert.ok(stepLabel(lost).endsWith('…') && stepLabel(lost).length < 180, stepLabel(lost));
    assert.ok(stepHtml(lost, (f) => f, 'x').includes(`<tr><th>Result</th><td>Failed: ${reason.replace(/"/g, '&quot;')} (TARGET_NOT_FOUND)</td></tr>`));
  });

  it('names the frame in words on the step page; the raw CDP id only in its tooltip', () => {
    assert.deepEqual(
      ['main', 'https://ads.example:8443/slot/a?x=1#y', 'about:srcdoc', '213FBE63348EA2DC24726D758F0CEFF2', 'f3', undefined].map(frameWords),
      ['main page', 'frame https://ads.example:8443/slot/a', 'frame about:srcdoc', 'a frame inside the page', 'a frame inside the page', undefined],
    );
    const raw = '213FBE63348EA2DC24726D758F0CEFF2';
    const row = (target: object) => /<tr><th>Frame<\/th>.*?<\/tr>/.exec(stepHtml(step({ target }), (f) => f, 'x'))?.[0];
    assert.equal(row({ role: 'textbox', name: 'Email', frame: 'main', frameId: raw }), `<tr><th>Frame</th><td title="frame id ${raw}">main page</td></tr>`);
    assert.equal(row({ role: 'button', name: 'Pay', frame: 'https://pay.example/widget?s=1' }), '<tr><th>Frame</th><td>frame https://pay.example/widget</td></tr>');
    // An older record kept only the raw id: words in the row, the id in the tooltip.
    assert.equal(row({ role: 'button', name: 'Go', frame: raw }), `<tr><th>Frame</th><td title="frame id ${raw}">a frame inside the page</td></tr>`);
    assert.equal(row({ role: 'button', name: 'Go' }), undefined);
  });

  it('records the frame as main or its URL, the raw id beside it', () => {
    const main = 'AAAA0000BBBB1111CCCC2222DDDD3333';
    // The action reports the raw id of the top frame; the preview saw "main": "main" wins, the id is kept.
    assert.deepEqual(recordedTarget({ ref: '1', role: 'textbox', name: 'Email', frame: 'main', selector: '#e' }, { ref: '1', role: 'textbox', name: 'Email', frame: main }, main), { ref: '1', role: 'textbox', name: 'Email', frame: 'main', frameId: main, selector: '#e' });
    // Only the raw id known: the tab's own id is the main page; another frame's id stays as it is.
    assert.equal(recordedTarget(undefined, { role: 'button', frame: main }, main)?.frame, 'main');
    const other = '9999000088887777666655554444AAAA';
    assert.deepEqual(recordedTarget({ frame: 'https://pay.example/w' }, { frame: other }, main), { frame: 'https://pay.example/w', frameId: other });
    assert.deepEqual(recordedTarget(undefined, { frame: other }, main), { frame: other, frameId: other });
    assert.equal(recordedTarget(undefined, undefined, main), undefined);
  });

  it('builds locators role+name first, then CSS, then XPath, and leaves unknown tools as comments', () => {
    assert.equal(locatorFor({ role: 'button', name: 'Go', selector: '#go' }), 'page.getByRole("button", { name: "Go", exact: true })');
    assert.equal(locatorFor({ role: 'generic', name: 'x', selector: 'div > span' }), 'page.locator("div > span")');
    assert.equal(locatorFor({ role: 'button', name: '', xpath: '/html/body/button' }), 'page.locator("xpath=/html/body/button")');
    const { code } = toPlaywrightTest({
      dir: '', id: 't', warnings: [], truncated: false,
      steps: [
        step({ step: 1, tool: 'browser_press_key', input: { key: 'Control+A' } }),
        step({ step: 2, tool: 'browser_drag', input: { startRef: '1', endRef: '2' } }),
        step({ step: 3, tool: 'browser_click', ok: false }),
        step({ step: 4, tool: 'browser_select_option', input: { ref: '3', values: ['b'] }, target: { role: 'combobox', name: 'Size' } }),
        step({ step: 5, tool: 'browser_evaluate', input: { script: 'document.title = "x"' } }),
      ],
    });
    assert.match(code, /^\/\/ @ts-nocheck\n/, 'the spec adds no TypeScript errors to the workspace Problems');
    assert.match(code, /step 5 \(browser_evaluate\) not exported: it ran a script[\s\S]*document\.title = "x"/, 'a script step is not dropped silently');
    assert.match(code, /await page\.keyboard\.press\("Control\+A"\);/);
    assert.match(code, /step 2 \(browser_drag\) has no Playwright equivalent/);
    assert.match(code, /step 3 \(browser_click\) not exported: it failed when recorded/, 'failed steps are not exported, and say so');
    assert.ok(!/step 3[^\n]*\n\s*await/.test(code));
    assert.match(code, /getByRole\("combobox", \{ name: "Size", exact: true \}\)\.selectOption\(\["b"\]\)/);
  });

  it('refuses to replay a URL with a secret scrubbed out of it, before touching the browser', async () => {
    const untouchable = new Proxy({}, { get: () => { throw new Error('the browser was used'); } }) as any;
    const report = await replayTask(
      { dir: '', id: 't', warnings: [], truncated: false, steps: [step({ step: 1, tool: 'browser_navigate', input: { url: `https://x.test/?token=${REDACTED}` } })] },
      { ctx: untouchable, hooks: {}, findTool, binder: untouchable },
    );
    assert.equal(report.stoppedAt, 1);
    assert.match(report.reason!, /"url" had a secret scrubbed out of it .*nothing was replayed/);
  });

  it('refuses to replay a click at coordinates (the element there cannot be verified)', async () => {
    const calls: string[] = [];
    const report = await replayTask(
      { dir: '', id: 't', warnings: [], truncated: false, steps: [step({ step: 1, tool: 'browser_click', input: { x: 10, y: 20 } })] },
      { ctx: { tab: async () => (calls.push('tab'), undefined) } as any, hooks: {}, findTool: () => ({ name: 'browser_click', readOnly: false }) as any, binder: { bind: async () => (calls.push('bind'), { ref: '1' }) } },
    );
    assert.equal(report.code, 'NOT_VERIFIABLE');
    assert.match(report.reason!, /screen coordinates/);
    assert.deepEqual(calls, []);
  });

  it('compares role and name with whitespace, ARIA/Chromium role spellings and capped names in mind', () => {
    assert.equal(fingerprintMismatch({ role: 'img', name: ' Logo  of shop ' }, { role: 'image', name: 'Logo of shop' }), undefined);
    assert.equal(fingerprintMismatch({ role: 'link', name: 'Subscribe to our weekly…' }, { role: 'link', name: 'Subscribe to our weekly newsletter' }), undefined);
    assert.match(fingerprintMismatch({ role: 'link', name: 'Sub…' }, { role: 'link', name: 'Subtract' })!, /name was/);
    assert.match(fingerprintMismatch({ role: 'button', name: 'Sign in' }, { role: 'link', name: 'Sign in' })!, /role was "button", now "link"/);
    assert.match(fingerprintMismatch({ role: 'button', name: 'Sign in' }, { role: 'button', name: 'Sign in now' })!, /name was "Sign in", now "Sign in now"/);
  });

  it('reads --audit-dir from the MCP server arguments', () => {
    assert.equal(auditDirFromArgs(['--audit-dir', '/a']), '/a');
    assert.equal(auditDirFromArgs(['x', '--audit-dir=/b']), '/b');
    assert.equal(auditDirFromArgs([]), undefined);
  });
});
