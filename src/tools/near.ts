// In-page helpers that complete a target's fingerprint for the audit log and replay; run with
// `this` bound to the element (callOnElement, Runtime.callFunctionOn).

/**
 * Text of the first ancestor (up to 5 levels) that has text beyond the element's own and its
 * label's: the label repeats the accessible name, so it cannot tell two "City" fields apart, but the
 * "Shipping" around one of them can.
 */
export const NEAR_FN = `function () {
  const squash = (t) => (t || '').replace(/\\s+/g, ' ').trim();
  const known = [squash(this.innerText || this.textContent), ...[...(this.labels || [])].map((l) => squash(l.innerText || l.textContent))].filter(Boolean);
  let el = this.parentElement;
  for (let i = 0; el && i < 5; i++, el = el.parentElement) {
    let t = squash(el.innerText || el.textContent);
    for (const k of known) t = t.replace(k, ' ');
    t = squash(t);
    if (t) return t.slice(0, 80);
  }
  return '';
}`;

/**
 * A CSS path and an XPath computed from the element itself, for when the snapshot's own
 * fingerprint has none (so every recorded action can be found again).
 */
export const PATH_FN = `function () {
  const css = (el) => {
    const parts = [];
    for (; el && el.nodeType === 1 && el !== document.documentElement; el = el.parentElement) {
      if (el.id && document.querySelectorAll('#' + CSS.escape(el.id)).length === 1) { parts.unshift('#' + CSS.escape(el.id)); break; }
      const same = el.parentElement ? [...el.parentElement.children].filter((c) => c.tagName === el.tagName) : [];
      parts.unshift(el.tagName.toLowerCase() + (same.length > 1 ? ':nth-of-type(' + (same.indexOf(el) + 1) + ')' : ''));
    }
    return parts.join(' > ');
  };
  const xpath = (el) => {
    const parts = [];
    for (; el && el.nodeType === 1; el = el.parentElement) {
      const same = el.parentElement ? [...el.parentElement.children].filter((c) => c.tagName === el.tagName) : [];
      parts.unshift(el.tagName.toLowerCase() + (same.length > 1 ? '[' + (same.indexOf(el) + 1) + ']' : ''));
    }
    return '/' + parts.join('/');
  };
  const root = this.getRootNode();
  return { selector: root instanceof ShadowRoot ? '' : css(this), xpath: root instanceof ShadowRoot ? '' : xpath(this) };
}`;
