// Refs to live elements: resolve for the action executor, clear errors for gone elements,
// fingerprints for the audit log and replay.
import type { Tab } from '../session/tab';
import type { TargetFingerprint } from '../tools/types';
import { BrowserAgentError, errorMessage } from '../errors';
import { evalInFrame, mainFrame, parseRef, refString, tabState, type RefRecord } from './frames';
import { elementsFor, notIssued } from './snapshot';
import type { ElementHandle } from './types';

/** The element behind a ref: TARGET_NOT_FOUND if never issued, STALE_REF (with the closest current match) if gone. */
export async function resolveRef(tab: Tab, ref: string): Promise<ElementHandle> {
  const st = tabState(tab);
  const p = parseRef(String(ref));
  const key = p ? refString(p.prefix, p.id) : String(ref);
  const rec = p && st.refs.get(key);
  if (!p || !rec) throw notIssued(String(ref));
  const frame = p.prefix === 0 ? await mainFrame(tab) : st.framesByPrefix.get(p.prefix);
  if (frame && !tab.dialog) {
    let objectId: string | undefined;
    let group: string | undefined;
    try {
      const r = await evalInFrame<unknown>(tab, frame, `globalThis.__baSnap.get(${p.id})`, false);
      objectId = r.objectId;
      group = r.group;
      if (objectId) {
        const { node } = await frame.session.send('DOM.describeNode', { objectId });
        return { ref: key, role: rec.role, name: rec.name, session: frame.session, frameId: frame.frameId, backendNodeId: node.backendNodeId };
      }
    } catch (e) {
      if (!/context|frame|target|session/i.test(errorMessage(e))) throw e;
    } finally {
      // Only this call's group: releasing a shared one freed objects concurrent calls were still using.
      if (group) frame.session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => {});
    }
  }
  tab.assertNoDialog();
  throw await staleError(tab, key, rec);
}

async function staleError(tab: Tab, key: string, rec: RefRecord): Promise<BrowserAgentError> {
  const was = `${rec.role} ${JSON.stringify(rec.name)}`;
  let match = '';
  try {
    const { lines } = await elementsFor(tab);
    match = closest(rec, lines.filter((l) => l.ref && l.ref !== key).map((l) => ({ ref: l.ref!, role: l.role!, name: l.name!, line: l.text }))) ?? '';
  } catch {
    /* the page is not readable right now; the error still names the element */
  }
  return new BrowserAgentError(
    'STALE_REF',
    `Ref ${key} (${was}) is no longer on the page.${match ? ` Closest current match: ${match}` : ''}`,
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

/** Role, name, frame, unique selector and XPath of a ref, for the audit log and replay. */
export async function fingerprint(tab: Tab, ref: string): Promise<TargetFingerprint> {
  const st = tabState(tab);
  const p = parseRef(String(ref));
  const key = p ? refString(p.prefix, p.id) : String(ref);
  const rec = p && st.refs.get(key);
  if (!p || !rec) throw notIssued(String(ref));
  const frame = p.prefix === 0 ? await mainFrame(tab) : st.framesByPrefix.get(p.prefix);
  const fp: TargetFingerprint = { ref: key, role: rec.role, name: rec.name, frame: p.prefix === 0 ? 'main' : (frame?.url ?? `f${p.prefix}`) };
  if (frame && !tab.dialog) {
    const r = await evalInFrame<{ selector: string; xpath: string } | null>(tab, frame, `globalThis.__baSnap.fingerprint(${p.id})`).catch(() => undefined);
    if (r?.value) {
      fp.selector = r.value.selector;
      fp.xpath = r.value.xpath;
    }
  }
  return fp;
}
