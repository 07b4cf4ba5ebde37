import { lostWhileRunning } from '../session/lostBrowser';
import { crashedError } from './hung';
import { BrowserAgentError } from '../base/errors';
import { sleep } from '../session/launcher';
import { isRefusedRef } from '../snapshot/shown';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement, describeHandle } from './element';
import type { ActionOutcome, Scope } from './scopeTypes';
import { pageCall, pageFns } from '../page/fn';
import scrollingFns from '../page/actions/scrolling.ts?pagefn';
import { ignore } from '../base/ignore';

const scrollingPage = pageFns<typeof import('../page/actions/scrolling')>(scrollingFns);

export type ElementState = 'visible' | 'hidden' | 'enabled' | 'disabled' | 'attached' | 'detached';

export interface WaitSpec {
  timeMs?: number;
  text?: string;
  textGone?: string;
  state?: ElementState;
  /** Re-resolves the element each poll (the ref may go stale while we wait). */
  element?: () => Promise<ElementHandle>;
  navigation?: boolean;
  timeoutMs: number;
}

async function pageHasText(s: Scope, text: string): Promise<boolean> {
  const r = await s.page.send('Runtime.evaluate', { expression: pageCall(scrollingPage.pageHasText, text), returnByValue: true }, 5000);
  return r.result.value === true;
}

async function elementState(spec: WaitSpec): Promise<Record<string, boolean>> {
  try {
    const h = await spec.element!();
    return await callOnElement<Record<string, boolean>>(h, scrollingPage.elementState);
  } catch (e) {
    // A ref of another page is refused at once; an element of this page that went away is simply detached.
    if (e instanceof BrowserAgentError && (e.code === 'STALE_REF' || e.code === 'TARGET_NOT_FOUND') && !isRefusedRef(e)) return { attached: false, visible: false, enabled: false };
    throw e;
  }
}

function met(state: Record<string, boolean>, want: ElementState): boolean {
  switch (want) {
    case 'visible':
      return state.visible;
    case 'hidden':
      return !state.visible;
    case 'enabled':
      return state.attached && state.enabled;
    case 'disabled':
      return state.attached && !state.enabled;
    case 'attached':
      return state.attached;
    case 'detached':
      return !state.attached;
  }
}

/** One capped wait; a dialog that opens meanwhile ends it early (the page is blocked anyway). */
export async function waitFor(s: Scope, spec: WaitSpec, label?: string): Promise<ActionOutcome> {
  const start = Date.now();
  const deadline = start + spec.timeoutMs;
  if (spec.timeMs !== undefined && spec.text === undefined && spec.textGone === undefined && !spec.state && !spec.navigation) {
    const until = Math.min(deadline, start + spec.timeMs);
    while (Date.now() < until && !s.tab.dialog && !s.ctx.signal?.aborted && s.browser.connected) await sleep(Math.min(100, until - Date.now()));
    return { text: s.tab.dialog ? `Stopped waiting after ${Date.now() - start} ms: a dialog opened` : `Waited ${Date.now() - start} ms` };
  }
  let navigated = false;
  const off = spec.navigation
    ? s.page.on('Page.loadEventFired', () => (navigated = true))
    : () => {};
  try {
    for (;;) {
      if (s.tab.dialog) return { text: `Stopped waiting after ${Date.now() - start} ms: a dialog opened` };
      if (s.ctx.signal?.aborted) throw new BrowserAgentError('CANCELLED', 'The wait was cancelled.');
      if (!s.browser.connected) throw lostWhileRunning(s.browser.kind, 'while waiting');
      if (s.tab.closed) throw new BrowserAgentError('TAB_CLOSED', 'The tab closed while waiting.', 'List tabs with browser_tabs and go on in another one.');
      // Its renderer died (out of memory, killed): nothing will ever show up; say so now, not at the deadline.
      if (s.tab.crashed) throw crashedError(s.tab);
      let ok = true;
      if (spec.text !== undefined) ok &&= await pageHasText(s, spec.text).catch((e) => ignore(e, 'unread counts as not shown yet: the wait goes on', false));
      if (ok && spec.textGone !== undefined) ok &&= !(await pageHasText(s, spec.textGone).catch((e) => ignore(e, 'unread counts as still shown: the wait goes on', true)));
      if (ok && spec.state) ok &&= met(await elementState(spec), spec.state);
      if (ok && spec.navigation) ok &&= navigated;
      if (ok) return { text: `${label ?? 'Condition'} met after ${Date.now() - start} ms` };
      if (Date.now() >= deadline) {
        throw new BrowserAgentError('TIMEOUT', `${label ?? 'The condition'} was not met within ${spec.timeoutMs} ms.`, 'Take a browser_snapshot to see the page as it is now; the text may differ, or the page may need another action.');
      }
      await sleep(Math.min(100, Math.max(0, deadline - Date.now())));
    }
  } finally {
    off();
  }
}

export function describeWait(spec: { text?: string; textGone?: string; state?: string; navigation?: boolean }, h?: ElementHandle): string {
  const parts: string[] = [];
  if (spec.text !== undefined) parts.push(`text "${spec.text}" to appear`);
  if (spec.textGone !== undefined) parts.push(`text "${spec.textGone}" to disappear`);
  if (spec.state) parts.push(`${h ? describeHandle(h) : 'the element'} to be ${spec.state}`);
  if (spec.navigation) parts.push('a navigation to finish loading');
  return parts.length ? `Waiting for ${parts.join(' and ')}` : 'Waiting';
}
