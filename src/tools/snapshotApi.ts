/** The snapshot layer as the tools see it. */
export { takeSnapshot, resolveRef, elementDetails, findInPage, snapshotDelta, fingerprint, type SnapshotOptions } from '../snapshot';
