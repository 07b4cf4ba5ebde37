import assert from 'node:assert/strict';
import { z } from 'zod';
import { agentToolSpecs, needsVision } from '../../src/agent/agentTools';
import { defineTool, text } from '../../src/contract/types';

const tool = (name: string, schema: z.ZodObject) => defineTool({ name, title: name, description: name, risk: 'input', schema, handler: async () => text('') });

describe('agent tools', () => {
  it('hides only vision tools from text models', () => {
    assert.equal(needsVision(tool('browser_screenshot', z.object({}))), true);
    assert.equal(needsVision(tool('browser_mouse_click_xy', z.object({ x: z.number(), y: z.number() }))), true);
    assert.equal(needsVision(tool('browser_click', z.object({ ref: z.string(), x: z.number().optional(), y: z.number().optional() }))), false);
    assert.equal(needsVision(tool('browser_click2', z.object({ ref: z.string().optional(), x: z.number(), y: z.number() }))), false);
    assert.equal(needsVision(tool('browser_type', z.object({ ref: z.string(), text: z.string() }))), false);
  });

  it('finish and think have object JSON schemas a provider accepts', () => {
    const finish = agentToolSpecs.find((t) => t.name === 'finish')!;
    assert.equal(finish.inputSchema.type, 'object');
    assert.deepEqual((finish.inputSchema.required as string[]).sort(), ['success', 'summary']);
    assert.equal('$schema' in finish.inputSchema, false);
  });
});
