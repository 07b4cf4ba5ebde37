// The page snapshot: the smallest text that still lets a model act on every element.
export { takeSnapshot, elementDetails, snapshotDelta, type SnapshotOptions } from './snapshot';
export { findInPage } from './find';
export { resolveRef, fingerprint, describeElement } from './refs';
export type { ElementHandle } from './types';
