import { z } from 'zod';
import { defineTool } from '../contract/types';
import { executeScript, SCRIPT_DEFAULTS } from './script/execute';

export const browserRunScript = defineTool({
  name: 'browser_run_script',
  title: 'Run a script of browser tool calls',
  description:
    'Run a short JavaScript async function body in a sandbox (QuickJS: no require, process, fetch, files or timers) that calls the browser tools in a loop, and get back only its return value. ' +
    'Use it for repetitive work: rows or pages of a table, pagination, many form fields, the same steps over a list, extraction across pages; one call instead of dozens. Not for one or two actions: call those tools directly. ' +
    '`browser.<fn>(input)` runs a tool with its usual input and resolves to its result text (fences removed) or throws an Error with `code` (BLOCKED_BY_POLICY when the user declined or the policy blocked it, STALE_REF, …), which the script may catch: ' +
    'navigate, back, forward, reload, snapshot, find, details, click, type, fillForm, select, hover, drag, press, scroll, handleDialog, wait, tabs, resize, evaluate, extract, consoleMessages, networkRequests. ' +
    'Helpers: `refsOf(text, role?, name?)` → [{ref, role, name, line}] from a snapshot or find result (name: substring or RegExp), `refOf(text, role?, name?)` → the first ref or throws, `args` (your JSON args), `log(...)`, `sleep(ms)` (≤10 s). ' +
    'Refs are valid only on the page whose snapshot or find showed them: take a snapshot after each navigation. Every call is checked and confirmed like a direct call, and audited. ' +
    `Limits: ${SCRIPT_DEFAULTS.timeoutMs / 1000} s, ${SCRIPT_DEFAULTS.maxCalls} tool calls, 64 MB, ${SCRIPT_DEFAULTS.maxOutputChars.toLocaleString('en-US')} characters of JSON returned, 1 s of computing between calls. ` +
    'Example: `const rows = []; for (let p = 0; p < 6; p++) { const s = await browser.snapshot(); rows.push(...refsOf(s, "row").map(r => r.name)); if (p < 5) await browser.click({ ref: refOf(s, "link", "Next") }); } return rows;`',
  schema: z.object({
    script: z.string().min(1).max(50_000).describe('The body of an async function: await browser.<fn>(…) calls, and `return` a JSON value.'),
    args: z.unknown().optional().describe('JSON the script reads as `args`.'),
    timeoutMs: z.number().int().min(1_000).max(300_000).optional().describe('Wall-time limit (default 60000).'),
    maxCalls: z.number().int().min(1).max(1_000).optional().describe('Tool-call limit (default 200).'),
    maxOutputChars: z.number().int().min(100).max(200_000).optional().describe('Limit on the returned JSON (default 20000).'),
  }),
  // The script itself reads and changes nothing: each of its calls is rated, confirmed and recorded on its own.
  risk: 'read',
  destructive: true,
  // No tab turn for the script: each call takes its own, like a direct call.
  browserless: true,
  composite: true,
  preview: async (i) => ({ message: `Running a script of browser tool calls (${i.script.split('\n').length} lines)`, code: i.script }),
  handler: (i, ctx) => executeScript(i, ctx),
});
