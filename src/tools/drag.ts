import { z } from 'zod';
import { drag, type DragEnd } from '../actions/drag';
import { perform } from '../actions/scope';
import { handleFor, pickTarget, previewOf, refField, xField, yField } from './common';
import type { Tab } from '../session/tab';
import { defineTool } from '../contract/types';

async function end(tab: Tab, t: { ref: string } | { x: number; y: number }): Promise<DragEnd> {
  return 'ref' in t ? { handle: await handleFor(tab, t.ref) } : { point: t };
}

export const browserDrag = defineTool({
  name: 'browser_drag',
  title: 'Drag',
  description:
    'Drag from an element or point to another element or point, moving in steps like a hand (works for HTML5 drag-and-drop, sortable lists, sliders and canvas). position picks where to drop inside the target: "before"/"after" (top/bottom edge: reorder a list up or down), "top"/"bottom", "left"/"right" (horizontal lists), "center" (default), or {x, y} offset from its top-left.',
  schema: z.object({
    fromRef: refField.optional(),
    fromX: xField.optional(),
    fromY: yField.optional(),
    toRef: refField.optional(),
    toX: xField.optional(),
    toY: yField.optional(),
    position: z.union([z.enum(['center', 'before', 'after', 'top', 'bottom', 'left', 'right']), z.object({ x: z.number(), y: z.number() })]).optional(),
    steps: z.number().int().min(2).max(100).optional().describe('Intermediate mouse moves (default 12).'),
  }),
  risk: 'input',
  preview: async (i, ctx) => {
    const p = await previewOf(ctx, 'Dragging', { ref: i.fromRef, x: i.fromX, y: i.fromY });
    // Where it is dropped counts as much as what is dragged: a trash can is a delete.
    const to = i.toRef ? (await previewOf(ctx, 'onto', { ref: i.toRef })).target : undefined;
    return to ? { ...p, dropTarget: to } : p;
  },
  handler: async (i, ctx) => {
    const from = pickTarget({ ref: i.fromRef, x: i.fromX, y: i.fromY }, 'browser_drag (from)');
    const to = pickTarget({ ref: i.toRef, x: i.toX, y: i.toY }, 'browser_drag (to)');
    return perform(ctx, {}, async (s) => drag(s, await end(s.tab, from), await end(s.tab, to), { position: i.position, steps: i.steps }));
  },
});
