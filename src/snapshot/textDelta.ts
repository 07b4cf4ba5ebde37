// Page text that appeared since the last snapshot, for action results: a validation error, a toast, "Step 2
// of 3" are text, not elements, and a model that only sees element changes would not learn what its action
// made the page say.
import type { Tab } from '../session/tab';
import { clip } from '../base/untrusted';
import type { Line } from './format';
import { pageCall, pageFns } from '../page/fn';
import snapshotWorldFns from '../page/snapshotWorld.ts?pagefn';

/** Calls into the frame's snapshot world. */
const worldPage = pageFns<typeof import('../page/snapshotWorld')>(snapshotWorldFns);
import { evalInFrame, mainFrame } from './frames';

/** At most this many new text lines in one delta, each cut to TEXT_CHARS: the page says what changed, no more. */
const MAX_TEXT_LINES = 8;
const TEXT_CHARS = 200;

/** How often each text line occurs (the same line may repeat, e.g. "Loading…" in two lists). */
export function textCounts(lines: Line[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of lines) if (l.kind === 'text' && l.text.trim()) counts.set(l.text, (counts.get(l.text) ?? 0) + 1);
  return counts;
}

/** `+ text` lines for text the page shows now and did not before (more copies of a line count too). */
export function addedText(before: Map<string, number>, now: Map<string, number>): string[] {
  const out: string[] = [];
  let more = 0;
  for (const [text, n] of now) {
    if (n <= (before.get(text) ?? 0)) continue;
    if (out.length < MAX_TEXT_LINES) out.push(`+ ${clip(text, TEXT_CHARS)}`);
    else more++;
  }
  if (more) out.push(`… ${more} more new text lines (browser_snapshot for the full page)`);
  return out;
}

/**
 * Messages the page showed for a moment since the last result and no longer shows (a toast that came after
 * the action settled): one line for the model, or none. Takes them, so each is told once.
 */
export async function shownBriefly(tab: Tab, now: Line[]): Promise<string | undefined> {
  const frame = await mainFrame(tab);
  const seen = await evalInFrame<string[]>(tab, frame, pageCall(worldPage.announced)).then((r) => r.value ?? [], () => []);
  const texts = now.filter((l) => l.kind === 'text' || l.kind === 'element').map((l) => l.text);
  const gone = seen.filter((t) => !texts.some((l) => l.includes(t)));
  return gone.length ? `Shown briefly since the last result, gone now: ${gone.map((t) => JSON.stringify(clip(t, TEXT_CHARS))).join(', ')}` : undefined;
}
