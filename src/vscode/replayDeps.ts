import { snapshotBinder } from '../audit/binder';
import type { ReplayDeps } from './audit/register';
import type { SessionManager } from '../session/manager';
import { findTool } from '../tools/registry';
import { createToolContext } from './toolContext';
import type { SafetyApi } from './safety';

/** Replay runs the real tools through the same safety gate, re-binding targets to fresh snapshot refs. */
export function replayDeps(sessions: SessionManager, safety: SafetyApi): ReplayDeps {
  return {
    toolContext: (signal) => createToolContext(sessions, signal),
    pipeline: (record) => safety.pipeline(record),
    findTool,
    binder: snapshotBinder(),
  };
}
