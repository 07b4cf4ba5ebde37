import { z } from 'zod';
import type { ToolDefinition } from '../contract/types';
import type { ToolSpec } from './types';

/** Tools only our own agent has: they end or annotate the run and never touch the page. */
export const FinishSchema = z.object({
  success: z.boolean().describe('true when the task is done; false when it cannot be done (say why in summary).'),
  summary: z.string().min(1).describe('What was done and found, for the user, in a few sentences.'),
  data: z.unknown().optional().describe('Extracted data the task asked for (any JSON), if any.'),
});

export const ThinkSchema = z.object({
  thought: z.string().min(1).describe('Your reasoning or plan. Costs one step; use it sparingly.'),
});

export const FINISH = 'finish';
export const THINK = 'think';

export function toolSpec(name: string, description: string, schema: z.ZodType): ToolSpec {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { name, description, inputSchema };
}

export const agentToolSpecs: ToolSpec[] = [
  toolSpec(FINISH, 'End the task. Call it once the task is done (success: true, with the answer in summary/data) or when it cannot be done (success: false, say why). Nothing runs after it.', FinishSchema),
  toolSpec(THINK, 'Write down a plan or reasoning without acting. Costs one step.', ThinkSchema),
];

export function specOf(t: ToolDefinition): ToolSpec {
  return toolSpec(t.name, t.description, t.schema);
}

/** Tools that need the model to see the page: screenshots, and actions taking pixel coordinates. */
export function needsVision(t: ToolDefinition): boolean {
  if (/screenshot/i.test(t.name)) return true;
  // Coordinate-only actions (x and y required, no way to name an element); a click that merely
  // accepts optional coordinates next to a ref stays available to text models.
  const shape = t.schema.shape as Record<string, z.ZodType | undefined>;
  const required = (k: string) => !!shape[k] && !shape[k]!.safeParse(undefined).success;
  return required('x') && required('y') && !('ref' in shape || 'selector' in shape || 'element' in shape);
}
