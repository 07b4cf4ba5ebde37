import { snapshotBinder } from '../audit/binder';
import type { ReplayDeps } from './audit/register';
import { secureTool } from '../safety/secureTool';
import type { SessionManager } from '../session/manager';
import { findTool } from '../tools/registry';
import { createToolContext } from './toolContext';
import type { SafetyApi } from './safety';

/** Replay runs the real tools through the same safety gate, re-binding targets to fresh snapshot refs. */
export function replayDeps(sessions: SessionManager, safety: SafetyApi): ReplayDeps {
  return {
    toolContext: (signal) => createToolContext(sessions, signal),
    decide: safety.decider.decide,
    findTool: (name) => {
      const tool = findTool(name);
      return tool && secureTool(tool, safety.vault); // {{secret:NAME}} placeholders resolve again
    },
    binder: snapshotBinder(),
  };
}
