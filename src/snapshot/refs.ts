// Refs to live elements: resolve for the action executor, clear errors for gone elements,
// fingerprints for the audit log and replay.
import type { Tab } from '../session/tab';
import type { TargetFingerprint } from '../contract/types';
import { BrowserAgentError, errorMessage } from '../base/errors';
import { pageCall, pageFns } from '../page/fn';
import snapshotWorldFns from '../page/snapshotWorld.ts?pagefn';

/** Calls into the frame's snapshot world. */
const worldPage = pageFns<typeof import('../page/snapshotWorld')>(snapshotWorldFns);
import { evalInFrame, mainFrame, parseRef, tabState, type RefRecord } from './frames';
import type { Line } from './format';
import { markShown, OTHER_DOCUMENT, otherDocumentError, shownRef, type ShownRef } from './shown';
import { elementsFor } from './snapshot';
import type { ElementHandle } from './types';
import { ignore } from '../base/ignore';

/**
 * The element behind a ref the model was shown: TARGET_NOT_FOUND if this tab never showed it, STALE_REF if its
 * frame holds another document now (the number may name someone else's element there) or the element is gone
 * (with the closest current match).
 */
export async function resolveRef(tab: Tab, ref: string): Promise<ElementHandle> {
  return resolveShown(tab, shownRef(tab, ref));
}

/**
 * The element of a line the caller read itself just now (the action cache's re-verification, replay's re-binding),
 * never a model's ref: checked against the line's document like a shown ref. Mark it shown before passing its ref on.
 */
export async function resolveLine(tab: Tab, line: Line): Promise<ElementHandle> {
  const p = line.ref ? parseRef(line.ref) : null;
  if (!p) throw new BrowserAgentError('TARGET_NOT_FOUND', 'The line has no ref.');
  return resolveShown(tab, { key: line.ref!, prefix: p.prefix, id: p.id, rec: { role: line.role ?? '', name: line.name ?? '', prefix: p.prefix, line: line.text, doc: line.doc } });
}

async function resolveShown(tab: Tab, s: ShownRef): Promise<ElementHandle> {
  const st = tabState(tab);
  const frame = s.prefix === 0 ? await mainFrame(tab) : st.framesByPrefix.get(s.prefix);
  if (frame && !tab.dialog) {
    let objectId: string | undefined;
    let group: string | undefined;
    let otherDoc = false;
    try {
      const r = await evalInFrame<unknown>(tab, frame, pageCall(worldPage.getIn, s.rec.doc ?? '', s.id), false);
      objectId = r.objectId;
      group = r.group;
      if (r.value === OTHER_DOCUMENT) otherDoc = true;
      else if (objectId) {
        const { node } = await frame.session.send('DOM.describeNode', { objectId });
        return { ref: s.key, role: s.rec.role, name: s.rec.name, session: frame.session, frameId: frame.frameId, backendNodeId: node.backendNodeId };
      }
    } catch (e) {
      if (!/context|frame|target|session/i.test(errorMessage(e))) throw e;
    } finally {
      // Only this call's group: releasing a shared one freed objects concurrent calls were still using.
      if (group) frame.session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
    }
    if (otherDoc) throw otherDocumentError(s, await closestNow(tab, s.key, s.rec));
  }
  tab.assertNoDialog();
  const match = await closestNow(tab, s.key, s.rec);
  throw s.rec.from ? otherDocumentError(s, match) : staleError(s.key, s.rec, match);
}

/** The current element most like a gone one, as its line (now shown, so its ref can be used); '' if none or unreadable. */
async function closestNow(tab: Tab, key: string, rec: RefRecord): Promise<string> {
  try {
    const { lines } = await elementsFor(tab);
    const candidates = lines.filter((l) => l.ref && l.ref !== key);
    const line = closest(rec, candidates.map((l) => ({ ref: l.ref!, role: l.role!, name: l.name!, line: l.text })));
    if (line) markShown(tab, candidates.filter((l) => l.text === line));
    return line ?? '';
  } catch {
    return ''; // the page is not readable right now; the error still names the element
  }
}

function staleError(key: string, rec: RefRecord, match: string): BrowserAgentError {
  return new BrowserAgentError(
    'STALE_REF',
    `Ref ${key} (${rec.role} ${JSON.stringify(rec.name)}) is no longer on the page.${match ? ` Closest current match: ${match}` : ''}`,
    match ? 'Use the new ref if it is the same element, or take a new snapshot.' : 'Take a new snapshot and use a ref from it.',
  );
}

function words(s: string): Set<string> {
  return new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
}

/** Same role and name first, then the most shared words of the name with a bonus for the same role. */
export function closest(rec: { role: string; name: string }, candidates: Array<{ ref: string; role: string; name: string; line: string }>): string | undefined {
  const target = words(rec.name);
  let best: { line: string; score: number } | undefined;
  for (const c of candidates) {
    let score = 0;
    if (c.name === rec.name) score += 10;
    else if (target.size) {
      const w = words(c.name);
      let shared = 0;
      for (const x of target) if (w.has(x)) shared++;
      score += (4 * shared) / Math.max(target.size, w.size || 1);
    }
    if (c.role === rec.role) score += 2;
    if (score >= 3 && (!best || score > best.score)) best = { line: c.line, score };
  }
  return best?.line;
}

/** `button "Submit"`: how results and confirmations name the element of a handle. */
export function describeElement(handle: Pick<ElementHandle, 'role' | 'name'>): string {
  return handle.name ? `${handle.role} ${JSON.stringify(handle.name)}` : handle.role;
}

/** Role, name, frame, unique selector and XPath of a shown ref, for the audit log and replay. */
export async function fingerprint(tab: Tab, ref: string): Promise<TargetFingerprint> {
  const st = tabState(tab);
  const s = shownRef(tab, ref);
  const frame = s.prefix === 0 ? await mainFrame(tab) : st.framesByPrefix.get(s.prefix);
  const fp: TargetFingerprint = { ref: s.key, role: s.rec.role, name: s.rec.name, frame: s.prefix === 0 ? 'main' : (frame?.url ?? `f${s.prefix}`) };
  if (frame && !tab.dialog) {
    const r = await evalInFrame<{ selector: string; xpath: string } | null | string>(tab, frame, pageCall(worldPage.fingerprintIn, s.rec.doc ?? '', s.id)).catch((e) => ignore(e, 'no selector or XPath: the fingerprint keeps role and name'));
    if (r?.value && typeof r.value === 'object') {
      fp.selector = r.value.selector;
      fp.xpath = r.value.xpath;
    }
  }
  return fp;
}
