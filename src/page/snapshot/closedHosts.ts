// Candidates for closed shadow roots: the page cannot show us a closed root, so each run collects the
// elements that may hide one, the CDP side asks about them (takeHostCandidates) and hands the roots it
// found back (addClosedRoots); the walk enters them from then on. Capped, and sampled per custom tag.
import { closedRoots } from './roles';
import { S } from './world';

/** Elements that may carry a shadow root besides custom elements (the spec's list for attachShadow). */
const HOST_TAGS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
const MAX_HOST_CANDIDATES = 200;
/**
 * A component class attaches its root the same way for every instance: after this many instances of a
 * custom tag without a closed root, the tag's other instances are not asked about (unless one had a root).
 */
const PROBES_PER_TAG = 3;

/** Per tag (`tag` once upgraded, `tag:undef` before): instances asked about, and tags known to use closed roots. */
const tagProbes = new Map<string, number>();
const tagsWithClosedRoots = new Set<string>();
/** Candidates per tag key in the current run. */
let runTagCount = new Map<string, number>();

function tagKey(el: Element): string {
  return el.matches(':defined') ? el.localName : el.localName + ':undef';
}

/** A run starts collecting afresh. */
export function resetHostCandidates(): void {
  S.hostCandidates = [];
  runTagCount = new Map();
}

/** Notes `el` (without an open root, box `r`) when it may host a closed root, up to the cap. */
export function noteHostCandidate(el: Element, r: DOMRect): void {
  if (S.hostCandidates.length < MAX_HOST_CANDIDATES && mayHostClosedRoot(el, r)) S.hostCandidates.push(el);
}

/**
 * Could `el` hide a closed shadow root? Custom elements (a dash in the tag) without an open root,
 * and rendered but childless built-in hosts: a closed root is the only way those draw anything.
 */
function mayHostClosedRoot(el: Element, r: DOMRect): boolean {
  const tag = el.localName;
  const custom = tag.includes('-');
  // Cheap tests first: this runs for every element of the page.
  if (!custom && (!HOST_TAGS.has(tag) || el.firstChild || !(r.width > 0 && r.height > 0))) return false;
  if (el.shadowRoot || closedRoots.has(el)) return false;
  const probed = S.probed.get(el);
  // A custom element defined (upgraded) after we asked may have attached a root since.
  if (probed !== undefined && (probed || !custom || !el.matches(':defined'))) return false;
  if (!custom) return true;
  const key = tagKey(el);
  if (tagsWithClosedRoots.has(tag)) return true;
  const n = (tagProbes.get(key) ?? 0) + (runTagCount.get(key) ?? 0);
  if (n >= PROBES_PER_TAG) return false;
  runTagCount.set(key, (runTagCount.get(key) ?? 0) + 1);
  return true;
}

/** Hands the candidates of the last run to the CDP side (once: they count as probed from now on). */
export function takeHostCandidates(): Element[] {
  const out = S.hostCandidates;
  S.hostCandidates = [];
  for (const el of out) {
    const custom = el.localName.includes('-');
    S.probed.set(el, !custom || el.matches(':defined'));
    if (custom) tagProbes.set(tagKey(el), (tagProbes.get(tagKey(el)) ?? 0) + 1);
  }
  runTagCount = new Map();
  return out;
}

/** Closed shadow roots resolved by CDP into this world: the walk enters them from now on. */
export function addClosedRoots(...roots: unknown[]): number {
  let added = 0;
  for (const r of roots) {
    if (r instanceof ShadowRoot && r.host && !closedRoots.has(r.host)) {
      closedRoots.set(r.host, r);
      tagsWithClosedRoots.add(r.host.localName);
      added++;
    }
  }
  return added;
}
