import type { CdpSession } from '../session/cdp';

/**
 * A live element behind a snapshot ref (`12`, `f2:5`): what the action executor needs to act on
 * it. Produced by the snapshot layer's ref resolution; STALE_REF when the element is gone.
 */
export interface ElementHandle {
  ref: string;
  role: string;
  name: string;
  /** The session that owns the element's frame: the page, or an out-of-process iframe. */
  session: CdpSession;
  /** Frame the element lives in. */
  frameId: string;
  backendNodeId: number;
}
