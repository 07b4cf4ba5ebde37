/**
 * WebSocket handshakes never reach request interception (`Fetch`) and Chrome's DevTools URL
 * blocking does not cover them either, so the guard puts this barrier into every document and
 * worker before their own scripts run: `WebSocket` (and `WebSocketStream`) refuse URLs the
 * policy's URLPattern rules block, with a SecurityError naming the URL. The constructors are
 * replaced non-writable and non-configurable, and new frames get the barrier too, so the page
 * cannot restore the originals.
 */
export function socketBarrierSource(rules: { urlPattern: string; block: boolean }[], binding: string): string {
  return `(() => {
  // The guard's binding, taken before page scripts run (they cannot call it with made-up reports).
  const report = globalThis[${JSON.stringify(binding)}];
  try { delete globalThis[${JSON.stringify(binding)}]; } catch {}
  const rules = ${JSON.stringify(rules)}.map((r) => [new URLPattern(r.urlPattern), r.block]);
  const blocked = (url) => { for (const [p, b] of rules) if (p.test(url)) return b; return false; };
  const wrap = (name) => {
    const Native = globalThis[name];
    if (typeof Native !== 'function') return;
    const Guarded = new Proxy(Native, {
      construct(target, args, newTarget) {
        let url;
        try {
          url = new URL(String(args[0]), self.location.href);
          if (url.protocol === 'http:') url.protocol = 'ws:';
          if (url.protocol === 'https:') url.protocol = 'wss:';
        } catch { return Reflect.construct(target, args, newTarget); }
        if (blocked(url.href)) {
          try { report && report(url.href); } catch {}
          throw new DOMException('The Browser Agent safety policy blocked the WebSocket to ' + url.href + ' (blocked origin or not in the allowed origins).', 'SecurityError');
        }
        return Reflect.construct(target, args, newTarget);
      },
    });
    try { Object.defineProperty(globalThis, name, { value: Guarded, writable: false, configurable: false, enumerable: false }); } catch {}
  };
  wrap('WebSocket');
  wrap('WebSocketStream');
})();`;
}
