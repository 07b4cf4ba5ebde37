import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { TargetFingerprint } from '../contract/types';
import { worldName } from '../session/worlds';
import { pageFns } from '../page/fn';
import targetFns from '../page/target.ts?pagefn';
import { ignore } from '../base/ignore';

const targetPage = pageFns<typeof import('../page/target')>(targetFns);

/** An element found again from a recorded fingerprint, with what the accessibility tree says it is now. */
export interface LocatedElement {
  session: CdpSession;
  frameId: string;
  backendNodeId: number;
  role: string;
  name: string;
  via: 'selector' | 'xpath' | 'role-name';
}

export type RelocateFailure = { ok: false; code: 'TARGET_NOT_FOUND' | 'TARGET_CHANGED' | 'NOT_VERIFIABLE'; reason: string };
export type RelocateResult = { ok: true; element: LocatedElement } | RelocateFailure;

const norm = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
/** Chromium's AX roles vs. ARIA names the snapshot may have recorded. */
const ROLE_ALIASES: Record<string, string> = { textfield: 'textbox', searchbox: 'textbox', statictext: 'text', image: 'img', generic: 'generic' };
const normRole = (r: string | undefined) => {
  const l = norm(r).toLowerCase();
  return ROLE_ALIASES[l] ?? l;
};

/** The recorded role and every Chromium spelling that means the same (textbox: searchbox, textfield). */
function roleSpellings(role: string): string[] {
  const want = normRole(role);
  return [...new Set([norm(role), want, ...Object.keys(ROLE_ALIASES).filter((k) => ROLE_ALIASES[k] === want)])];
}

/** Equal, or the recorded name was shortened with an ellipsis (snapshots cap long names) and still fits. */
function sameName(recorded: string, now: string): boolean {
  if (recorded === now) return true;
  if (!recorded.endsWith('…')) return false;
  const stem = recorded.slice(0, -1).trimEnd();
  return stem.length >= 8 && now.startsWith(stem);
}

/** Compares what was recorded with what is there now; undefined when they agree. */
export function fingerprintMismatch(fp: TargetFingerprint, now: { role?: string; name?: string }): string | undefined {
  if (fp.role !== undefined && normRole(fp.role) !== normRole(now.role)) return `role was "${fp.role}", now "${now.role ?? ''}"`;
  if (fp.name !== undefined && !sameName(norm(fp.name), norm(now.name))) return `name was "${norm(fp.name)}", now "${norm(now.name)}"`;
  return undefined;
}

interface FrameTarget {
  session: CdpSession;
  frameId: string;
  url: string;
}

function flattenFrames(tree: Protocol.Page.FrameTree, out: { id: string; url: string }[] = []): { id: string; url: string }[] {
  out.push({ id: tree.frame.id, url: tree.frame.url + (tree.frame.urlFragment ?? '') });
  for (const c of tree.childFrames ?? []) flattenFrames(c, out);
  return out;
}

/**
 * The frames to search. The snapshot records `main` or the frame's URL (older records: a frame
 * id). The recorded frame when it is still there, else every frame — the match must still be unique.
 */
async function framesFor(tab: Tab, fp: TargetFingerprint): Promise<FrameTarget[]> {
  const main = await tab.session();
  // Out-of-process frames first: the page's frame tree lists them too, but only their own
  // session can evaluate in them.
  const sessions: CdpSession[] = [...tab.frameSessions().map((f) => f.session), main];
  const all: FrameTarget[] = [];
  let mainId: string | undefined;
  for (const session of sessions) {
    try {
      const { frameTree } = await session.send('Page.getFrameTree', undefined, 5000);
      const frames = flattenFrames(frameTree);
      if (session === main) mainId = frames[0].id; // the root of the page's own tree
      for (const f of frames) if (!all.some((x) => x.frameId === f.id)) all.push({ session, frameId: f.id, url: f.url });
    } catch (e) {
      ignore(e, 'frame went away');
    }
  }
  const mainIndex = all.findIndex((f) => f.session === main && f.frameId === mainId);
  if (mainIndex < 0) return [];
  if (mainIndex > 0) all.unshift(...all.splice(mainIndex, 1));
  if (!fp.frame || fp.frame === 'main' || fp.frame === tab.targetId) return all.slice(0, 1);
  const exact = all.filter((f) => f.frameId === fp.frame || f.url === fp.frame);
  return exact.length ? exact : all;
}

async function findIn(target: FrameTarget, kind: 'selector' | 'xpath', query: string): Promise<{ objectId?: string; count: number }> {
  const { executionContextId } = await target.session.send('Page.createIsolatedWorld', { frameId: target.frameId, worldName: worldName('replay') }, 5000);
  const res = await target.session.send(
    'Runtime.callFunctionOn',
    { functionDeclaration: targetPage.findOne, executionContextId, arguments: [{ value: kind }, { value: query }] },
    5000,
  );
  if (res.result.type === 'number') return { count: Math.max(0, Number(res.result.value)) };
  return { objectId: res.result.objectId, count: 1 };
}

/** Role and accessible name as Chromium's accessibility tree computes them. */
export async function axRoleName(session: CdpSession, backendNodeId: number): Promise<{ role: string; name: string }> {
  const { nodes } = await session.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false }, 5000);
  const node = nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? nodes[0];
  // Chromium keeps the label's trailing space in some names ("Email " for `<label>Email <input>`).
  return { role: String(node?.role?.value ?? ''), name: String(node?.name?.value ?? '').replace(/\s+/g, ' ').trim() };
}

/**
 * The fallback when no selector or XPath finds the element (none recorded, or the page's structure
 * changed): the one element of the recorded role with the recorded accessible name, through
 * Chromium's accessibility tree, in the recorded frame; the text around it decides between several.
 */
async function byRoleAndName(frames: FrameTarget[], fp: TargetFingerprint): Promise<{ found?: LocatedElement; note?: string }> {
  if (!fp.role || !fp.name) return { note: 'no role and name were recorded to search by' };
  const hits: { target: FrameTarget; backendNodeId: number; name: string; role: string }[] = [];
  for (const target of frames) {
    try {
      const { executionContextId } = await target.session.send('Page.createIsolatedWorld', { frameId: target.frameId, worldName: worldName('replay') }, 5000);
      const doc = await target.session.send('Runtime.evaluate', { expression: 'document', contextId: executionContextId }, 5000);
      if (!doc.result.objectId) continue;
      // By role, then the name compared as everywhere else: Chromium keeps a label's trailing space
      // ("City " for `<label>City <input>`) and snapshots cap long names, so an exact-name query misses.
      for (const r of roleSpellings(fp.role)) {
        const { nodes } = await target.session.send('Accessibility.queryAXTree', { objectId: doc.result.objectId, role: r }, 5000);
        for (const n of nodes) {
          if (n.ignored || n.backendDOMNodeId === undefined) continue;
          const name = norm(String(n.name?.value ?? ''));
          if (sameName(norm(fp.name), name)) hits.push({ target, backendNodeId: n.backendDOMNodeId, role: String(n.role?.value ?? r), name });
        }
      }
      await target.session.send('Runtime.releaseObject', { objectId: doc.result.objectId }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
    } catch (e) {
      ignore(e, 'frame went away');
    }
  }
  let pick = hits;
  if (hits.length > 1 && fp.near) {
    const near = norm(fp.near);
    const close: typeof hits = [];
    for (const h of hits) {
      const text = await nearbyText(h.target.session, h.backendNodeId).catch((e) => ignore(e, 'no text near it: not close', ''));
      if (norm(text).includes(near)) close.push(h);
    }
    pick = close;
  }
  if (pick.length === 1) return { found: { session: pick[0].target.session, frameId: pick[0].target.frameId, backendNodeId: pick[0].backendNodeId, role: pick[0].role, name: pick[0].name, via: 'role-name' } };
  const what = `${fp.role} ${JSON.stringify(fp.name)}`;
  if (!hits.length) return { note: `no ${what} is on the page` };
  return { note: pick.length ? `${pick.length} elements are ${what}${fp.near ? ` near ${JSON.stringify(fp.near)}` : ''}` : `${hits.length} elements are ${what}, none near ${JSON.stringify(fp.near)}` };
}

/** The text of the element's surroundings (its nearest ancestors), to tell same-named elements apart. */
async function nearbyText(session: CdpSession, backendNodeId: number): Promise<string> {
  const { object } = await session.send('DOM.resolveNode', { backendNodeId }, 5000);
  if (!object.objectId) return '';
  const r = await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: targetPage.nearText, returnByValue: true }, 5000);
  await session.send('Runtime.releaseObject', { objectId: object.objectId }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
  return String(r.result.value ?? '');
}

/**
 * Finds the recorded element again: by CSS selector, then XPath, in the recorded frame; exactly
 * one match is required, and its role and name (Chromium's accessibility tree) must equal what
 * was recorded. When neither finds it (or none was recorded), by role and name (and the text near
 * it). Never guesses: several candidates are a failure that says so.
 */
export async function relocate(tab: Tab, fp: TargetFingerprint, opts: { verify?: boolean } = {}): Promise<RelocateResult> {
  if (fp.role === undefined && fp.name === undefined) return { ok: false, code: 'NOT_VERIFIABLE', reason: 'the recorded target has no role or name to verify it against' };
  const frames = await framesFor(tab, fp);
  const notes: string[] = [];
  for (const kind of ['selector', 'xpath'] as const) {
    const query = kind === 'selector' ? fp.selector : fp.xpath;
    if (!query) continue;
    const found: { target: FrameTarget; objectId: string }[] = [];
    for (const target of frames) {
      try {
        const r = await findIn(target, kind, query);
        if (r.objectId) found.push({ target, objectId: r.objectId });
        else if (r.count > 1) notes.push(`${kind} ${JSON.stringify(query)} matches ${r.count} elements`);
      } catch (e) {
        ignore(e, 'frame detached meanwhile');
      }
    }
    if (found.length > 1) notes.push(`${kind} ${JSON.stringify(query)} matches in ${found.length} frames`);
    if (found.length !== 1) continue;
    const { target, objectId } = found[0];
    const { node } = await target.session.send('DOM.describeNode', { objectId }, 5000);
    await target.session.send('Runtime.releaseObject', { objectId }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
    const now = await axRoleName(target.session, node.backendNodeId);
    // verify: false when the caller checks with the same role/name source the fingerprint came from.
    const mismatch = opts.verify === false ? undefined : fingerprintMismatch(fp, now);
    if (mismatch) return { ok: false, code: 'TARGET_CHANGED', reason: `the element at ${kind} ${JSON.stringify(query)} is not the recorded one: ${mismatch}` };
    return { ok: true, element: { session: target.session, frameId: target.frameId, backendNodeId: node.backendNodeId, role: now.role, name: now.name, via: kind } };
  }
  const fallback = await byRoleAndName(frames, fp);
  if (fallback.found) return { ok: true, element: fallback.found };
  if (fallback.note) notes.push(fallback.note);
  const what = [fp.selector && `selector ${JSON.stringify(fp.selector)}`, fp.xpath && `XPath ${JSON.stringify(fp.xpath)}`, fp.role && fp.name && 'role and name'].filter(Boolean).join(' or ');
  // Leads with what is missing: the history tree shows the start of this line.
  const lost = fp.role && fp.name !== undefined ? `cannot find ${fp.role} ${JSON.stringify(fp.name)} again: ` : '';
  return { ok: false, code: 'TARGET_NOT_FOUND', reason: `${lost}no single element matches ${what || 'the recorded target'}${notes.length ? ` (${notes.join('; ')})` : ''}` };
}
