/**
 * Calls into the snapshot script of a frame's isolated world (`globalThis.__baSnap`, installed by
 * snapshot/extractor.ts), from the CDP side (snapshot/frames.ts, refs.ts, snapshot.ts, textDelta.ts).
 */
import type { DetailsResult, RunOptions, RunResult, SummaryResult } from './protocol';

/** What extractor.ts puts on `globalThis.__baSnap`. */
export interface SnapshotWorld {
  run(o: RunOptions): RunResult;
  get(id: number): Element | null;
  /** The document the refs of this world belong to. */
  doc: string;
  markClickable(...els: Element[]): void;
  markEditHosts(...els: Element[]): void;
  summary(): SummaryResult;
  details(ids: number[]): DetailsResult[];
  fingerprint(id: number): { selector: string; xpath: string } | null;
  frames(): Element[];
  takeHostCandidates(): Element[];
  addClosedRoots(...roots: ShadowRoot[]): number;
}

/** The snapshot world's script; undefined before it is installed. */
export const world = (): SnapshotWorld => (globalThis as unknown as { __baSnap: SnapshotWorld }).__baSnap;

/** What an in-page check answers when the frame holds another document than the ref's. */
export const OTHER_DOCUMENT = 'ba:other-document';

/** One run of the extractor, as one JSON string (it crosses CDP much faster than a 20k-object value tree). */
export function runJson(o: RunOptions): string {
  return JSON.stringify(world().run(o));
}

export function summary(): SummaryResult {
  return world().summary();
}

export function frames(): Element[] {
  return world().frames();
}

export function takeHostCandidates(): Element[] {
  return world().takeHostCandidates();
}

export function addClosedRoots(...roots: ShadowRoot[]): number {
  return world().addClosedRoots(...roots);
}

export function markClickable(...els: Element[]): void {
  return world().markClickable(...els);
}

export function markEditHosts(...els: Element[]): void {
  return world().markEditHosts(...els);
}

/**
 * The element of ref number `id`, its fingerprint, or the details of `ids` — when the world's document is `doc`,
 * the one the ref was shown in; else OTHER_DOCUMENT. One evaluation, so no navigation fits between.
 */
export function getIn(doc: string, id: number): Element | null | typeof OTHER_DOCUMENT {
  const S = world();
  return S.doc === doc ? S.get(id) : OTHER_DOCUMENT;
}

export function fingerprintIn(doc: string, id: number): { selector: string; xpath: string } | null | typeof OTHER_DOCUMENT {
  const S = world();
  return S.doc === doc ? S.fingerprint(id) : OTHER_DOCUMENT;
}

export function detailsIn(doc: string, ids: number[]): DetailsResult[] | typeof OTHER_DOCUMENT {
  const S = world();
  return S.doc === doc ? S.details(ids) : OTHER_DOCUMENT;
}

/** The change counter of the frame's document (snapshot/changes.ts). */
export function changes(): string {
  return (globalThis as unknown as { __baChanges: () => string }).__baChanges();
}

/** Texts live regions announced since the last call (snapshot/announce.ts); none before the script is in. */
export function announced(): string[] {
  const g = globalThis as unknown as { __baAnnounced?: () => string[] };
  return g.__baAnnounced ? g.__baAnnounced() : [];
}
