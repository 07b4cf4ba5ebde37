/**
 * Page code the session layer puts into documents: the WebSocket barrier of the request guard
 * (session/socketBarrier.ts) and the secret-field mask of screenshots (session/maskSecrets.ts), and what tab choice asks (session/tabChoice.ts).
 */
import { ignore } from '../ignore';

/** URLPattern (Chromium has it; TypeScript's DOM library does not declare it yet). */
declare const URLPattern: new (pattern: string) => { test(url: string): boolean };

/**
 * WebSocket handshakes never reach request interception (`Fetch`) and Chrome's DevTools URL blocking does not
 * cover them either, so the guard puts this barrier into every document and worker before their own scripts
 * run: `WebSocket` (and `WebSocketStream`) refuse URLs the policy's URLPattern rules block, with a
 * SecurityError naming the URL. The constructors are replaced non-writable and non-configurable, and new
 * frames get the barrier too, so the page cannot restore the originals.
 */
export function socketBarrier(rulesIn: { urlPattern: string; block: boolean }[], binding: string): void {
  const g = globalThis as unknown as Record<string, unknown>;
  // The guard's binding, taken before page scripts run (they cannot call it with made-up reports).
  const report = g[binding] as ((url: string) => void) | undefined;
  try { delete g[binding]; } catch (e) { ignore(e, 'not configurable: the page sees it, cannot forge through it'); }
  const rules = rulesIn.map((r) => [new URLPattern(r.urlPattern), r.block] as const);
  const blocked = (url: string) => { for (const [p, b] of rules) if (p.test(url)) return b; return false; };
  const wrap = (name: string) => {
    const Native = g[name];
    if (typeof Native !== 'function') return;
    const Guarded = new Proxy(Native, {
      construct(target, args, newTarget) {
        let url: URL;
        try {
          url = new URL(String(args[0]), self.location.href);
          if (url.protocol === 'http:') url.protocol = 'ws:';
          if (url.protocol === 'https:') url.protocol = 'wss:';
        } catch { return Reflect.construct(target, args, newTarget); }
        if (blocked(url.href)) {
          try { report && report(url.href); } catch (e) { ignore(e, 'the report is best effort; the refusal is what counts'); }
          throw new DOMException('The Browser Agent safety policy blocked the WebSocket to ' + url.href + ' (blocked origin or not in the allowed origins).', 'SecurityError');
        }
        return Reflect.construct(target, args, newTarget);
      },
    });
    try { Object.defineProperty(globalThis, name, { value: Guarded, writable: false, configurable: false, enumerable: false }); } catch (e) { ignore(e, 'already fixed by an earlier barrier'); }
  };
  wrap('WebSocket');
  wrap('WebSocketStream');
}

/**
 * Masks (`on`) or unmasks password and secret fields while a screenshot is taken: a field is masked when it is
 * type=password, its autocomplete says password/card/one-time-code, or its name, id, label, aria-label or
 * placeholder says password, token, API key, secret, PIN, CVV… (several languages). Values are never read or
 * sent: a per-capture style under attribute `attr` shows them as discs, in the document, its shadow roots and
 * same-origin frames.
 */
export function maskSecretFields(attr: string, on: boolean): void {
  const words = /pass(word|code|phrase|wort)?|secret|token|api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|otp|one[\s_-]?time|\bpin\b|cvv|cvc|csc|card[\s_-]?(number|no)|iban|ssn|密码|口令|contraseña|senha|mot de passe|パスワード|暗証|пароль/i;
  const secretField = (el: HTMLInputElement) => {
    if (el.type === 'password') return true;
    if (/password|cc-|one-time-code/i.test(el.autocomplete || '')) return true;
    const labels = el.labels ? [...el.labels].map((l) => l.textContent).join(' ') : '';
    return words.test([el.name, el.id, el.placeholder, el.getAttribute('aria-label'), labels].join(' '));
  };
  const css = '[' + attr + ']{-webkit-text-security:disc!important;text-security:disc!important;}';
  const visit = (root: Document | ShadowRoot) => {
    if (on) {
      if (!(root as Document).getElementById?.(attr) && !root.querySelector?.('#' + attr)) {
        const style = document.createElement('style');
        style.id = attr;
        style.textContent = css;
        ((root as Document).head || root).appendChild(style);
      }
      for (const el of root.querySelectorAll<HTMLInputElement>('input, textarea')) if (el.value && secretField(el)) el.setAttribute(attr, '');
    } else {
      root.querySelector('#' + attr)?.remove();
      for (const el of root.querySelectorAll('[' + attr + ']')) el.removeAttribute(attr);
    }
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.tagName === 'IFRAME') { try { const d = (el as HTMLIFrameElement).contentDocument; if (d) visit(d); } catch (e) { ignore(e, 'another origin: its own session masks it'); } }
    }
  };
  visit(document);
}

/** Whether the page is visible and has focus (which tab a person is looking at). */
export function visibleAndFocused(): [DocumentVisibilityState, boolean] {
  return [document.visibilityState, document.hasFocus()];
}
