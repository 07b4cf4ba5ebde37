/** Where scrolling stands, and when the page has come to rest (actions/scroll.ts, actions/settle.ts, actions/wait.ts). */

export interface ScrollPos {
  x: number;
  y: number;
  w: number;
  h: number;
  vw: number;
  vh: number;
}

/** The page's position after the scroll has come to rest (two frames without movement, capped). */
export function pagePos(): Promise<ScrollPos> {
  return new Promise((resolve) => {
    const read = () => [Math.round(scrollX), Math.round(scrollY)];
    let last = read().join(), same = 0, n = 0;
    const tick = () => {
      const now = read().join();
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 2 || ++n > 60) {
        const d = document.scrollingElement || document.documentElement;
        resolve({ x: scrollX, y: scrollY, w: d.scrollWidth, h: d.scrollHeight, vw: innerWidth, vh: innerHeight });
      } else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** An element's scroll position after it has come to rest. */
export function elementPos(el: Element): Promise<ScrollPos> {
  return new Promise((resolve) => {
    let last = '', same = 0, n = 0;
    const tick = () => {
      const now = el.scrollLeft + ',' + el.scrollTop;
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 2 || ++n > 60) resolve({ x: el.scrollLeft, y: el.scrollTop, w: el.scrollWidth, h: el.scrollHeight, vw: el.clientWidth, vh: el.clientHeight });
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** `this` or its nearest ancestor (through shadow roots) that scrolls on the axis; null: the page. */
export function scrollArea(this: Element, vertical: boolean): Element | null {
  // eslint-disable-next-line @typescript-eslint/no-this-alias -- CDP calls it on the element; the walk starts there
  for (let e: Element | null | undefined = this; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && (e.getRootNode() as ShadowRoot).host)) {
    if (e === document.documentElement || e === document.body) return null;
    const cs = getComputedStyle(e);
    const o = vertical ? cs.overflowY : cs.overflowX;
    if (/auto|scroll|overlay/.test(o) && (vertical ? e.scrollHeight > e.clientHeight : e.scrollWidth > e.clientWidth)) return e;
  }
  return null;
}

/** "the scrollable list "Results"": a scroll area, named. */
export function areaLabel(el: Element): string {
  const role = el.getAttribute('role');
  const name = (el.getAttribute('aria-label') || '').trim().slice(0, 60);
  return 'the scrollable ' + (role || el.localName) + (name ? ' "' + name + '"' : '');
}

/** Brings the element to the middle of its scroll areas, at once. */
export function scrollToCenter(el: Element): void {
  el.scrollIntoView?.({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
}

/**
 * DOM quiet: resolves after two animation frames if nothing mutated, else once mutations stopped
 * for 50 ms (capped). A static page pays ~two frames, never a fixed delay. True when something mutated.
 */
export function domQuiet(cap: number): Promise<boolean> {
  return new Promise((resolve) => {
    const start = performance.now();
    let last = 0;
    let mutated = false;
    const mo = new MutationObserver(() => { last = performance.now(); mutated = true; });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const done = () => { mo.disconnect(); resolve(mutated); };
    let frames = 0;
    const tick = () => {
      const now = performance.now();
      if (now - start > cap) return done();
      if (++frames >= 2 && (!mutated || now - last >= 50)) return done();
      if (document.visibilityState === 'hidden') setTimeout(tick, 16); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    setTimeout(done, cap);
  });
}

/** Whether the element is attached, visible and enabled (browser_wait's element states). */
export function elementState(el: Element): { attached: boolean; visible: boolean; enabled: boolean } {
  const r = el.getBoundingClientRect();
  const visible = el.isConnected && r.width > 0 && r.height > 0 && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));
  const disabled = (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true';
  return { attached: el.isConnected, visible, enabled: !disabled };
}

/** Whether the page's visible text holds `text`. */
export function pageHasText(text: string): boolean {
  return (document.body ? document.body.innerText : '').includes(text);
}

/** The viewport as the page sees it, and whether it has a touch screen. */
export function viewport(): { w: number; h: number; touch: number } {
  return { w: innerWidth, h: innerHeight, touch: navigator.maxTouchPoints };
}
