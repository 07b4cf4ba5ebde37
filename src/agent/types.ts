import type { ContentPart } from '../contract/types';

/** A tool call the model asked for. `id` is the provider's id (or one we made for JSON mode). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** The outcome of one tool call, sent back to the model on the next turn. */
export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  name: string;
  content: ContentPart[];
  isError?: boolean;
  /** Agent step number that produced it, for placeholders ("snapshot from step 3 omitted"). */
  step?: number;
}

export type UserPart = ContentPart | ToolResultPart;

/** The provider-neutral transcript: each provider file maps it to its own wire format. */
export type AgentMessage =
  | { role: 'user'; content: UserPart[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] };

/** A tool as a model sees it: name, description and a JSON schema for the arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: AgentMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /** Streamed text as it arrives (providers without streaming call it once). */
  onText?(delta: string): void;
}

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  usage?: { inputTokens: number; outputTokens: number };
}

export interface ProviderCapabilities {
  /** Native function calling; false → the JSON fallback wraps the provider. */
  tools: boolean;
  /** Accepts images: hybrid mode (screenshots + coordinate actions) is possible. */
  vision: boolean;
}

/** One small interface every model backend implements. */
export interface ChatProvider {
  readonly id: string;
  /** For the panel: `Anthropic · claude-sonnet-4-5`. */
  readonly label: string;
  readonly capabilities: ProviderCapabilities;
  send(req: ModelRequest): Promise<ModelReply>;
}

export type AgentMode = 'dom' | 'hybrid';

/** An error from a model backend; `status` lets the retry wrapper tell transient from fatal. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
