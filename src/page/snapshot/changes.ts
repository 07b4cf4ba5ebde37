// Counts DOM changes in this frame since the extractor's world was created, so that reading on from an
// offset can reuse the lines of the previous snapshot while nothing changed (one pass of a 20k-element
// page per read instead of one per continuation call). Runs inside the page.
let changes = 0;
/** This world: a re-created world (a navigation, or a context lost) never matches an earlier stamp. */
const WORLD = Math.random().toString(36).slice(2);

function start() {
  const root = document.documentElement ?? document;
  new MutationObserver((records) => {
    changes += records.length;
  }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
}

start();

/** `world:count` — equal stamps mean the same world saw no DOM change in between. */
export function changeCount(): string {
  return `${WORLD}:${changes}`;
}

(globalThis as any).__baChanges = changeCount;
