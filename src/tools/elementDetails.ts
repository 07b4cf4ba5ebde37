import { z } from 'zod';
import { openScope } from '../actions/scope';
import { normalizeRef, previewOf, refField } from './common';
import { elementDetails } from './snapshotApi';
import { defineTool } from '../contract/types';

export const browserElementDetails = defineTool({
  name: 'browser_element_details',
  title: 'Element details',
  description: 'All attributes, a unique CSS selector, XPath, bounding box, parent text, child count and href of the given refs.',
  schema: z.object({ refs: z.array(refField).min(1).max(50) }),
  risk: 'read',
  readOnly: true,
  preview: (i, ctx) => previewOf(ctx, `Reading details of ${i.refs.length} element(s)`),
  handler: async (i, ctx) => {
    const s = await openScope(ctx);
    return { content: [{ type: 'text', text: await elementDetails(s.tab, i.refs.map(normalizeRef)) }] };
  },
});
