import { z } from 'zod';
import { fenceUrl } from '../base/untrusted';
import { screenshot } from '../actions/screenshot';
import { openScope } from '../actions/scope';
import { modalLines } from '../actions/report';
import { handleFor, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserScreenshot = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot',
  description:
    'Take a screenshot: a PNG of the viewport (default), the full page, or one element (ref). Scaled so no side exceeds 1568 px; the text part says the scale, so x/y for browser_click are image pixels divided by the scale. Prefer browser_snapshot for acting; use this to see layout or visuals.',
  schema: z.object({
    fullPage: z.boolean().optional(),
    ref: refField.optional().describe('Capture only this element.'),
  }),
  risk: 'read',
  readOnly: true,
  concurrent: true,
  preview: (i, ctx) => previewOf(ctx, 'Taking a screenshot', { ref: i.ref }),
  handler: async (i, ctx) => {
    const s = await openScope(ctx);
    const handle = i.ref ? await handleFor(s.tab, i.ref) : undefined;
    const shot = await screenshot(s, { fullPage: i.fullPage, handle });
    const what = handle ? `element [${handle.ref}]` : i.fullPage ? 'full page' : 'viewport';
    const scale = shot.scale < 1 ? `, scaled by ${shot.scale.toFixed(3)} (divide image coordinates by it for browser_click)` : '';
    const text = [`Screenshot of the ${what}: ${shot.width}×${shot.height} px${scale}. Page ${fenceUrl(s.tab.url)}`, ...modalLines(s)].join('\n');
    return { content: [{ type: 'text', text }, { type: 'image', data: shot.data, mimeType: 'image/png' }] };
  },
});
