// Text the page showed for a moment: toasts, snackbars and live-region messages ("Link copied", "Saved",
// "Something went wrong") that appear after an action has settled and are gone before the model looks again.
// A MutationObserver in the extractor's world keeps them until the next result takes them. Runs inside the page.
const LIVE = '[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive],output';
/** Elements looked at per batch of mutations, and messages kept: bounded on pages that churn. */
const MAX_PER_BATCH = 30;
const MAX_KEPT = 10;
const MAX_CHARS = 300;

const kept: string[] = [];

/** A live region, or inside something fixed on screen (where toasts live), within a few levels. */
function announcing(el: Element): boolean {
  if (el.closest(LIVE)) return true;
  for (let e: Element | null = el, i = 0; e && i < 6; e = e.parentElement, i++) {
    if (e === document.body || e === document.documentElement) return false;
    if (getComputedStyle(e).position === 'fixed') return true;
  }
  return false;
}

function start() {
  const root = document.documentElement;
  if (!root) return;
  new MutationObserver((records) => {
    let looked = 0;
    for (const r of records) {
      const nodes = r.type === 'characterData' ? [r.target] : Array.from(r.addedNodes);
      for (const n of nodes) {
        if (looked++ >= MAX_PER_BATCH) return;
        const el = n.nodeType === 1 ? (n as Element) : n.parentElement;
        // Cheapest checks first: a churning page adds big subtrees many times a second.
        if (!el || !el.isConnected || (el.textContent ?? '').length > MAX_CHARS * 4 || !announcing(el)) continue;
        const text = (el as HTMLElement).innerText?.replace(/\s+/g, ' ').trim();
        if (!text || text.length > MAX_CHARS || kept.includes(text)) continue;
        kept.push(text);
        if (kept.length > MAX_KEPT) kept.shift();
      }
    }
  }).observe(root, { subtree: true, childList: true, characterData: true });
}

start();

/** The messages seen since the last call, oldest first; the log starts afresh. */
export function takeAnnounced(): string[] {
  return kept.splice(0);
}

(globalThis as any).__baAnnounced = takeAnnounced;
