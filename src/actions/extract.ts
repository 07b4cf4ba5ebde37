import { pageCall, pageFns } from '../page/fn';
import extractFns from '../page/actions/extract.ts?pagefn';
import { BrowserAgentError } from '../base/errors';
import type { Scope } from './scopeTypes';
import { worldName } from '../session/worlds';

export type ExtractMode = 'markdown' | 'links' | 'tables';

const extractPage = pageFns<typeof import('../page/actions/extract')>(extractFns);

/**
 * Main content as Markdown (@mozilla/readability + turndown), links, or tables as JSON. Runs in
 * an isolated world on the live DOM: what the user sees, JS-rendered content included, and page
 * scripts cannot tamper with the extractor.
 */
export async function extract(s: Scope, mode: ExtractMode, maxChars: number): Promise<string> {
  s.tab.assertNoDialog();
  const { executionContextId } = await s.page.send('Page.createIsolatedWorld', { frameId: s.tab.targetId, worldName: worldName('extract'), grantUniveralAccess: false });
  const res = await s.page.send(
    'Runtime.evaluate',
    { expression: pageCall(extractPage.extract, mode), contextId: executionContextId, returnByValue: true },
    20_000,
  );
  if (res.exceptionDetails) throw new BrowserAgentError('CDP_ERROR', `Extraction failed: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
  const out = String(res.result.value ?? '');
  return out.length > maxChars ? `${out.slice(0, maxChars)}\n… [truncated: ${out.length - maxChars} more characters; raise maxChars or use browser_find]` : out;
}
