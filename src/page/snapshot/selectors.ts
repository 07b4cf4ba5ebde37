// Unique CSS selector and XPath of an element within its own document or shadow root.

function unique(root: Document | ShadowRoot, sel: string): boolean {
  try {
    return root.querySelectorAll(sel).length === 1;
  } catch {
    return false;
  }
}

export function cssPath(el: Element): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (let e: Element | null = el; e && e.nodeType === 1; e = e.parentElement) {
    if (e.id) {
      const idSel = `#${CSS.escape(e.id)}`;
      if (unique(root, idSel)) {
        parts.unshift(idSel);
        break;
      }
    }
    let part = e.localName;
    const parent: Element | null = e.parentElement;
    if (parent) {
      let sameTag = 0;
      let index = 0;
      for (let s: Element | null = parent.firstElementChild; s; s = s.nextElementSibling) {
        if (s.localName === e.localName) {
          sameTag++;
          if (s === e) index = sameTag;
        }
      }
      if (sameTag > 1) part += `:nth-of-type(${index})`;
    }
    parts.unshift(part);
    const sel = parts.join(' > ');
    if (parent && unique(root, sel)) return sel;
  }
  return parts.join(' > ');
}

export function xPath(el: Element): string {
  const parts: string[] = [];
  for (let e: Element | null = el; e && e.nodeType === 1; e = e.parentElement) {
    let index = 1;
    let count = 0;
    for (let s: Element | null | undefined = e.parentElement?.firstElementChild; s; s = s.nextElementSibling) {
      if (s.localName === e.localName) {
        count++;
        if (s === e) index = count;
      }
    }
    const name = e.namespaceURI === 'http://www.w3.org/1999/xhtml' ? e.localName : `*[local-name()='${e.localName}']`;
    parts.unshift(count > 1 ? `${name}[${index}]` : name);
  }
  return '/' + parts.join('/');
}
