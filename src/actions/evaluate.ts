import { fenceInline } from '../base/untrusted';
import { BrowserAgentError } from '../base/errors';
import type { Scope } from './scopeTypes';
import { pageFns } from '../page/fn';
import evaluateFns from '../page/evaluate.ts?pagefn';
import { ignore } from '../base/ignore';

const evaluatePage = pageFns<typeof import('../page/evaluate')>(evaluateFns);

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
      res = await page.send('Runtime.callFunctionOn', { objectId: res.result.objectId, functionDeclaration: evaluatePage.callThis, awaitPromise: true, userGesture: true, objectGroup: 'browser-agent-eval' }, 30_000);
      if (res.exceptionDetails) throw fail(res.exceptionDetails);
    }
    const r = res.result;
    let json: string;
    if (r.objectId) {
      const ser = await page.send('Runtime.callFunctionOn', { objectId: r.objectId, functionDeclaration: evaluatePage.serialize, returnByValue: true }, 10_000);
      json = ser.exceptionDetails ? JSON.stringify(r.description ?? null) : String(ser.result.value);
    } else if (r.unserializableValue !== undefined) json = JSON.stringify(r.unserializableValue);
    else json = r.type === 'undefined' ? 'undefined' : JSON.stringify(r.value);
    return json.length > maxChars ? `${json.slice(0, maxChars)}… [truncated, ${json.length} characters in all]` : json;
  } finally {
    page.send('Runtime.releaseObjectGroup', { objectGroup: 'browser-agent-eval' }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
  }
}
