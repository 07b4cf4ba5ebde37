// In-page helpers that complete a target's fingerprint for the audit log and replay; run with
// `this` bound to the element (callOnElement, Runtime.callFunctionOn).

/** Text of the first ancestor (up to 4 levels) that has text beyond the element's own. */
export const NEAR_FN = `function () {
  const own = (this.innerText || this.textContent || '').trim();
  let el = this.parentElement;
  for (let i = 0; el && i < 4; i++, el = el.parentElement) {
    const t = (el.innerText || el.textContent || '').replace(own, '').replace(/\\s+/g, ' ').trim();
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
