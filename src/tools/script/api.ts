import type { ToolDefinition } from '../../contract/types';
import { browserClick } from '../click';
import { browserConsoleMessages } from '../consoleMessages';
import { browserDrag } from '../drag';
import { browserElementDetails } from '../elementDetails';
import { browserEvaluate } from '../evaluate';
import { browserExtract } from '../extract';
import { browserFillForm } from '../fillForm';
import { browserFind } from '../find';
import { browserHandleDialog } from '../handleDialog';
import { browserHover } from '../hover';
import { browserNavigate } from '../navigate';
import { browserNavigateBack } from '../navigateBack';
import { browserNavigateForward } from '../navigateForward';
import { browserNetworkRequests } from '../networkRequests';
import { browserPressKey } from '../pressKey';
import { browserReload } from '../reload';
import { browserResize } from '../resize';
import { browserScroll } from '../scroll';
import { browserSelectOption } from '../selectOption';
import { browserSnapshot } from '../snapshot';
import { browserTabs } from '../tabs';
import { browserType } from '../type';
import { browserWait } from '../wait';

/**
 * What a script may call: `browser.<fn>(input)` runs the tool with the same input schema, through the same
 * pipeline as a direct call. Left out on purpose: screenshots (images mean nothing to a script), uploads (they
 * send local files), closing the session, skills, and browser_run_script itself.
 */
export const SCRIPT_FUNCTIONS: Record<string, ToolDefinition> = {
  navigate: browserNavigate,
  back: browserNavigateBack,
  forward: browserNavigateForward,
  reload: browserReload,
  snapshot: browserSnapshot,
  find: browserFind,
  details: browserElementDetails,
  click: browserClick,
  type: browserType,
  fillForm: browserFillForm,
  select: browserSelectOption,
  hover: browserHover,
  drag: browserDrag,
  press: browserPressKey,
  scroll: browserScroll,
  handleDialog: browserHandleDialog,
  wait: browserWait,
  tabs: browserTabs,
  resize: browserResize,
  evaluate: browserEvaluate,
  extract: browserExtract,
  consoleMessages: browserConsoleMessages,
  networkRequests: browserNetworkRequests,
} as unknown as Record<string, ToolDefinition>;

/** Functions that only read: the final page delta is the last call that is not one of them. */
export function readsOnly(fn: string): boolean {
  return !!SCRIPT_FUNCTIONS[fn]?.readOnly;
}

/**
 * The script's world, set up inside the sandbox before its body runs (trusted code, ours). `browser.<fn>`
 * resolves to the result's text (page fences removed: the script handles page text as data) or throws an
 * Error with the tool's `code` (`BLOCKED_BY_POLICY` when declined or blocked, `STALE_REF`, …) that the script
 * may catch. The line of each call goes with it, for the confirmation and the log.
 */
export function scriptPrelude(): string {
  const fns = JSON.stringify(Object.keys(SCRIPT_FUNCTIONS));
  return `(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
  const lineOfCaller = () => { const m = /script\\.js:(\\d+)/.exec(String(new Error().stack || '')); return m ? Math.max(1, Number(m[1]) - 1) : undefined; };
  const call = async (fn, input) => {
    const r = await host.async('call', fn, input === undefined ? {} : input, lineOfCaller());
    if (r.ok) return r.text;
    const e = new Error(r.text);
    e.name = 'ToolError';
    e.code = r.code;
    e.fn = fn;
    throw e;
  };
  const browser = {};
  for (const fn of ${fns}) browser[fn] = (input) => call(fn, input);
  const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  const matches = (want, got) => want === undefined || want === null || (want instanceof RegExp ? want.test(got) : String(got).toLowerCase().includes(String(want).toLowerCase()));
  // Element lines of a snapshot or find result: "[12] button \\"Submit\\"", "- [f2:5] row \\"Alice 42\\" (2 of 5)".
  const refsOf = (snapshotText, role, name) => {
    const out = [];
    for (const line of String(snapshotText).split('\\n')) {
      const m = /^\\s*(?:[-*]\\s+)?\\[([a-z]?\\d+(?::\\d+)?)\\]\\s+([\\w-]+)(?:\\s+"((?:[^"\\\\]|\\\\.)*)")?(.*)$/i.exec(line);
      if (!m) continue;
      const item = { ref: m[1], role: m[2], name: (m[3] || '').replace(/\\\\"/g, '"'), line: line.trim() };
      if ((role === undefined || role === null || item.role === role) && matches(name, item.name)) out.push(item);
    }
    return out;
  };
  const refOf = (snapshotText, role, name) => {
    const hit = refsOf(snapshotText, role, name)[0];
    if (!hit) throw Object.assign(new Error('no element ' + [role, name].filter((x) => x !== undefined).map(String).join(' ') + ' in that text'), { code: 'TARGET_NOT_FOUND' });
    return hit.ref;
  };
  // The first JSON value in a result (browser.extract({ what: 'tables' }) returns its tables as JSON).
  const jsonOf = (resultText) => {
    const t = String(resultText);
    const start = t.search(/[[{]/);
    if (start < 0) throw new Error('no JSON in that text');
    const close = t[start] === '[' ? ']' : '}';
    for (let end = t.lastIndexOf(close); end > start; end = t.lastIndexOf(close, end - 1)) {
      try { return JSON.parse(t.slice(start, end + 1)); } catch (e) { /* a shorter span */ }
    }
    throw new Error('no JSON in that text');
  };
  Object.defineProperties(globalThis, {
    jsonOf: { value: jsonOf },
    browser: { value: Object.freeze(browser) },
    args: { value: host.sync('args') },
    log: { value: (...parts) => { host.sync('log', parts.map(text).join(' ')); } },
    sleep: { value: (ms) => host.async('sleep', Number(ms) || 0) },
    refsOf: { value: refsOf },
    refOf: { value: refOf },
  });
})();`;
}
