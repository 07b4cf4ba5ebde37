import { pageCall, pageFns } from '../page/fn';
import guardsFns from '../page/session/guards.ts?pagefn';

const guardsPage = pageFns<typeof import('../page/session/guards')>(guardsFns);

/**
 * The WebSocket barrier (page/session/guards.ts) as a script for Page.addScriptToEvaluateOnNewDocument and workers.
 * WebSocket handshakes never reach request interception (`Fetch`) and Chrome's DevTools URL
 * blocking does not cover them either, so the guard puts this barrier into every document and
 * worker before their own scripts run: `WebSocket` (and `WebSocketStream`) refuse URLs the
 * policy's URLPattern rules block, with a SecurityError naming the URL. The constructors are
 * replaced non-writable and non-configurable, and new frames get the barrier too, so the page
 * cannot restore the originals.
 */
export function socketBarrierSource(rules: { urlPattern: string; block: boolean }[], binding: string): string {
  return `${pageCall(guardsPage.socketBarrier, rules, binding)};`;
}
