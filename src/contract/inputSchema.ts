import { z } from 'zod';
import type { ToolDefinition } from './types';

/**
 * A tool's input as JSON Schema, the same for MCP clients and Copilot: no `$schema` key (VS Code wants a plain
 * object schema), a tool without arguments closed with `additionalProperties: false` (OpenAI's strict mode
 * refuses an open one; the runner refuses unknown arguments anyway), and no `minimum`/`maximum` that only say
 * "any safe integer" (zod's `.int()` adds them; they bound nothing and cost tokens in every tool list).
 */
export function inputSchemaOf(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(tool.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const tidy = withoutSafeIntegerBounds(schema) as Record<string, unknown>;
  const props = tidy.properties as Record<string, unknown> | undefined;
  if (!props || !Object.keys(props).length) tidy.additionalProperties = false;
  return tidy;
}

function withoutSafeIntegerBounds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSafeIntegerBounds);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === 'maximum' && x === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && x === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = withoutSafeIntegerBounds(x);
  }
  return out;
}
