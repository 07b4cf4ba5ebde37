/**
 * The only file through which tools reach the snapshot layer (src/snapshot, issue 3). While that
 * layer has not landed on this branch, these stand-ins fail with a clear error; once it lands,
 * this file becomes a re-export: `export { takeSnapshot, resolveRef, elementDetails, findInPage,
 * snapshotDelta, fingerprint } from '../snapshot';`.
 */
import { BrowserAgentError } from '../errors';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { TargetFingerprint } from './types';

export interface SnapshotOptions {
  layer?: 'summary' | 'elements';
  viewportOnly?: boolean;
  ref?: string;
  maxTokens?: number;
}

export interface FindOptions {
  regex?: boolean;
  limit?: number;
}

function unavailable(what: string): BrowserAgentError {
  return new BrowserAgentError('TARGET_NOT_FOUND', `${what} needs the snapshot layer, which is not part of this build.`, 'Use x/y coordinates from browser_screenshot, or browser_evaluate, instead of refs.');
}

export async function takeSnapshot(_tab: Tab, _opts: SnapshotOptions = {}): Promise<string> {
  throw unavailable('browser_snapshot');
}

export async function resolveRef(_tab: Tab, ref: string): Promise<ElementHandle> {
  throw unavailable(`Resolving ref [${ref}]`);
}

export async function elementDetails(_tab: Tab, _refs: string[]): Promise<string> {
  throw unavailable('browser_element_details');
}

export async function findInPage(_tab: Tab, _query: string, _opts: FindOptions = {}): Promise<string> {
  throw unavailable('browser_find');
}

/** What changed since the last snapshot, as compact text; undefined when nothing did. */
export async function snapshotDelta(_tab: Tab): Promise<string | undefined> {
  return undefined;
}

export async function fingerprint(_tab: Tab, ref: string): Promise<TargetFingerprint> {
  return { ref };
}
