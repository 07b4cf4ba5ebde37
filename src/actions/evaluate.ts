import { fenceInline } from '../base/untrusted';
import { BrowserAgentError } from '../base/errors';
import type { Scope } from './scopeTypes';

/** Turns any value into JSON-safe data: cycles, DOM nodes, functions, BigInt, Map/Set, errors. */
const SERIALIZE = `function () {
  const seen = new WeakSet();
  const walk = (v, depth) => {
    if (v === undefined) return null;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint') return v.toString() + 'n';
    if (typeof v === 'function') return '[function ' + (v.name || 'anonymous') + ']';
    if (typeof v === 'symbol') return v.toString();
    if (typeof Node !== 'undefined' && v instanceof Node) {
      if (v.nodeType === 1) return '<' + v.localName + (v.id ? '#' + v.id : '') + '>';
      return '[' + v.nodeName + ']';
    }
    if (v instanceof Error) return { error: v.name, message: v.message };
    if (seen.has(v)) return '[Circular]';
    if (depth > 8) return '[…]';
    seen.add(v);
    if (v instanceof Map) return Object.fromEntries([...v].slice(0, 1000).map(([k, x]) => [String(k), walk(x, depth + 1)]));
    if (v instanceof Set) return [...v].slice(0, 1000).map((x) => walk(x, depth + 1));
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v).slice(0, 1000).map((x) => walk(x, depth + 1));
    if (v instanceof Date) return v.toISOString();
    const out = {};
    for (const k of Object.keys(v).slice(0, 1000)) { try { out[k] = walk(v[k], depth + 1); } catch { out[k] = '[unreadable]'; } }
    return out;
  };
  return JSON.stringify(walk(this, 0));
}`;

/**
 * Runs a script in the page: an expression, statements (REPL mode, top-level await allowed), or a
 * function expression which is called. Returns JSON text, capped.
 */
export async function evaluateInPage(s: Scope, script: string, maxChars = 20_000): Promise<string> {
  s.tab.assertNoDialog();
  const page = s.page;
  const fail = (d: { exception?: { description?: string }; text: string }) =>
    new BrowserAgentError('INVALID_INPUT', `The script threw: ${fenceInline((d.exception?.description ?? d.text).split('\n').slice(0, 3).join(' '))}`, 'Fix the script; it runs in the page like the DevTools console.');
  let res = await page.send('Runtime.evaluate', { expression: script, replMode: true, awaitPromise: true, userGesture: true, objectGroup: 'browser-agent-eval' }, 30_000);
  if (res.exceptionDetails) throw fail(res.exceptionDetails);
  try {
    if (res.result.type === 'function' && res.result.objectId) {
      res = await page.send('Runtime.callFunctionOn', { objectId: res.result.objectId, functionDeclaration: 'function () { return this(); }', awaitPromise: true, userGesture: true, objectGroup: 'browser-agent-eval' }, 30_000);
      if (res.exceptionDetails) throw fail(res.exceptionDetails);
    }
    const r = res.result;
    let json: string;
    if (r.objectId) {
      const ser = await page.send('Runtime.callFunctionOn', { objectId: r.objectId, functionDeclaration: SERIALIZE, returnByValue: true }, 10_000);
      json = ser.exceptionDetails ? JSON.stringify(r.description ?? null) : String(ser.result.value);
    } else if (r.unserializableValue !== undefined) json = JSON.stringify(r.unserializableValue);
    else json = r.type === 'undefined' ? 'undefined' : JSON.stringify(r.value);
    return json.length > maxChars ? `${json.slice(0, maxChars)}… [truncated, ${json.length} characters in all]` : json;
  } finally {
    page.send('Runtime.releaseObjectGroup', { objectGroup: 'browser-agent-eval' }).catch(() => {});
  }
}
