import { z } from 'zod';
import { BrowserAgentError } from '../base/errors';
import { previewOf } from './common';
import { defineTool, text } from '../contract/types';
import { pageCall, pageFns } from '../page/fn';
import scrollingFns from '../page/actions/scrolling.ts?pagefn';

const scrollingPage = pageFns<typeof import('../page/actions/scrolling')>(scrollingFns);

interface Viewport {
  w: number;
  h: number;
  touch: number;
}

export const browserResize = defineTool({
  name: 'browser_resize',
  title: 'Resize viewport',
  description:
    "Resize the viewport: set the active tab's viewport to width × height CSS pixels, e.g. to check a page at a phone's size (mobile: true also makes the page see a touch screen and a mobile viewport), or reset it to the window's own size. It stays for the tab across navigations.",
  schema: z.object({
    width: z.number().int().min(200).max(4000).optional().describe('CSS pixels, e.g. 390 for a phone.'),
    height: z.number().int().min(200).max(4000).optional().describe('CSS pixels, e.g. 844 for a phone.'),
    mobile: z.boolean().optional().describe('Emulate a phone: mobile viewport (meta viewport honoured) and touch.'),
    reset: z.boolean().optional().describe("Back to the window's own size, without touch; other fields must be left out."),
  }),
  risk: 'session',
  preview: (i, ctx) => previewOf(ctx, i.reset ? 'Resetting the viewport' : `Resizing the viewport to ${i.width ?? '?'}×${i.height ?? '?'}${i.mobile ? ' (mobile)' : ''}`),
  handler: async (i, ctx) => {
    const hasSize = i.width !== undefined || i.height !== undefined || i.mobile !== undefined;
    if (i.reset && hasSize) throw new BrowserAgentError('INVALID_INPUT', 'browser_resize: give reset alone, or width and height.', 'Reset first, then resize in a second call if needed.');
    if (!i.reset && (i.width === undefined || i.height === undefined)) throw new BrowserAgentError('INVALID_INPUT', 'browser_resize needs both width and height (or reset: true).', 'A phone is about 390×844, a tablet 820×1180, a laptop 1280×800.');
    const tab = await ctx.tab();
    tab.assertNoDialog();
    const s = await tab.session();
    if (i.reset) {
      await s.send('Emulation.clearDeviceMetricsOverride');
      await s.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    } else {
      // deviceScaleFactor 0 keeps the screen's: a phone's 3× would triple every screenshot's pixels for a model.
      await s.send('Emulation.setDeviceMetricsOverride', { width: i.width!, height: i.height!, deviceScaleFactor: 0, mobile: !!i.mobile });
      await s.send('Emulation.setTouchEmulationEnabled', i.mobile ? { enabled: true, maxTouchPoints: 5 } : { enabled: false });
    }
    const v = await tab.evaluate<Viewport>(pageCall(scrollingPage.viewport), 5000);
    const what = i.reset ? "the window's own size" : `${i.width}×${i.height}${i.mobile ? ', mobile with touch' : ''}`;
    return text(`Viewport set to ${what}: the page now sees ${v.w}×${v.h} CSS pixels${v.touch ? ' and a touch screen' : ''}. Take a new snapshot or screenshot: the layout may have changed.`);
  },
});
