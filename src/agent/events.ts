import type { Decision } from '../contract/decision';
import type { TargetFingerprint } from '../contract/types';
import type { AgentMessage } from './types';

/** What happened to a run, in order, for the chat panel (and any other observer). */
export type AgentEvent =
  | { type: 'status'; text: string }
  | { type: 'text'; delta: string }
  | { type: 'turn'; step: number; text: string }
  | { type: 'step-start'; id: string; step: number; tool: string; input: unknown; target?: string }
  | {
      type: 'step-end';
      id: string;
      step: number;
      tool: string;
      input: unknown;
      target?: string;
      ok: boolean;
      code?: string;
      /** First line of the output, for the compact card. */
      summary: string;
      /** Full text output (bounded), for the expanded card. */
      output: string;
      image?: { data: string; mimeType: string };
      durationMs: number;
      decision?: Decision;
      fingerprint?: TargetFingerprint;
    }
  | { type: 'tokens'; estimate: number; inputTokens?: number; outputTokens?: number }
  | { type: 'done'; outcome: AgentOutcome };

/** `unverified`: the model said it succeeded, but actions it took failed and were not redone. */
export type AgentStatus = 'success' | 'unverified' | 'failure' | 'stopped' | 'max-steps' | 'stuck' | 'error';

export interface AgentOutcome {
  status: AgentStatus;
  summary: string;
  data?: unknown;
  steps: number;
  tokens: number;
  /** Why the outcome is not what the model claimed (status `unverified`), in words for a person. */
  reason?: string;
  /** The thread after this run (earlier turns and this one, compacted): what a follow-up continues. */
  conversation?: AgentMessage[];
}
