// The page snapshot: the smallest text that still lets a model act on every element.
export { takeSnapshot, elementDetails, snapshotDelta, NO_CHANGE, type SnapshotOptions } from './snapshot';
export { findInPage } from './find';
export { resolveRef, resolveLine, fingerprint, describeElement } from './refs';
export { markShown } from './shown';
export type { ElementHandle } from './types';
