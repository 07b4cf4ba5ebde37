import { randomBytes } from 'node:crypto';
import type { CdpSession } from './cdp';
import type { Tab } from './tab';

/**
 * Masks password and secret fields while a screenshot is taken: a field is masked when it is
 * type=password, its autocomplete says password/card/one-time-code, or its name, id, label,
 * aria-label or placeholder says password, token, API key, secret, PIN, CVV… (several languages).
 * Values are never read or sent: a per-capture style shows them as discs, in the document, its
 * shadow roots, same-origin frames and out-of-process frames, and is removed right after.
 */
const MASK_SOURCE = (attr: string, on: boolean) => `(() => {
  const attr = ${JSON.stringify(attr)};
  const words = /pass(word|code|phrase|wort)?|secret|token|api[\\s_-]?key|access[\\s_-]?key|private[\\s_-]?key|otp|one[\\s_-]?time|\\bpin\\b|cvv|cvc|csc|card[\\s_-]?(number|no)|iban|ssn|密码|口令|contraseña|senha|mot de passe|パスワード|暗証|пароль/i;
  const secretField = (el) => {
    if (el.type === 'password') return true;
    if (/password|cc-|one-time-code/i.test(el.autocomplete || '')) return true;
    const labels = el.labels ? [...el.labels].map((l) => l.textContent).join(' ') : '';
    return words.test([el.name, el.id, el.placeholder, el.getAttribute('aria-label'), labels].join(' '));
  };
  const css = '[' + attr + ']{-webkit-text-security:disc!important;text-security:disc!important;}';
  const visit = (root) => {
    if (${on}) {
      if (!root.getElementById?.(attr) && !root.querySelector?.('#' + attr)) {
        const style = document.createElement('style');
        style.id = attr;
        style.textContent = css;
        (root.head || root).appendChild(style);
      }
      for (const el of root.querySelectorAll('input, textarea')) if (el.value && secretField(el)) el.setAttribute(attr, '');
    } else {
      root.querySelector('#' + attr)?.remove();
      for (const el of root.querySelectorAll('[' + attr + ']')) el.removeAttribute(attr);
    }
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.tagName === 'IFRAME') { try { if (el.contentDocument) visit(el.contentDocument); } catch {} }
    }
  };
  visit(document);
})()`;

async function run(sessions: CdpSession[], attr: string, on: boolean): Promise<void> {
  await Promise.all(sessions.map((s) => s.send('Runtime.evaluate', { expression: MASK_SOURCE(attr, on) }, 2000).catch(() => undefined)));
}

/** Runs `capture` with the tab's secret fields masked, and unmasks them whatever happens. */
export async function withSecretFieldsMasked<T>(tab: Tab, capture: () => Promise<T>): Promise<T> {
  const sessions = [await tab.session(), ...tab.frameSessions().map((f) => f.session)];
  const attr = `ba-mask-${randomBytes(6).toString('hex')}`;
  await run(sessions, attr, true);
  try {
    return await capture();
  } finally {
    await run(sessions, attr, false);
  }
}
