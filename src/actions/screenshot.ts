import { withSecretFieldsMasked } from '../session/maskSecrets';
import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { elementBox, scrollIntoView } from './element';
import type { Scope } from './scopeTypes';

/** Longest side models take without downscaling it themselves (Claude's limit). */
export const MAX_SIDE = 1568;

export interface Shot {
  data: string;
  width: number;
  height: number;
  scale: number;
  /** The captured area in CSS pixels of the page. */
  area: { x: number; y: number; width: number; height: number };
}

/** A PNG of the viewport, the full page or one element, scaled down to ≤ 1568 px on its longest side. */
export async function screenshot(s: Scope, o: { fullPage?: boolean; handle?: ElementHandle } = {}): Promise<Shot> {
  s.tab.assertNoDialog();
  const m = await s.page.send('Page.getLayoutMetrics');
  const vv = m.cssVisualViewport;
  let area: Shot['area'];
  if (o.handle) {
    await scrollIntoView(o.handle);
    const box = await elementBox(s.tab, o.handle);
    if (!box) throw new BrowserAgentError('NOT_INTERACTABLE', `The element [${o.handle.ref}] is not visible, so it cannot be captured.`, 'Take a screenshot of the page instead.');
    const after = await s.page.send('Page.getLayoutMetrics');
    area = { x: box.x + after.cssVisualViewport.pageX, y: box.y + after.cssVisualViewport.pageY, width: box.width, height: box.height };
  } else if (o.fullPage) {
    area = { x: 0, y: 0, width: m.cssContentSize.width, height: Math.min(m.cssContentSize.height, 16_384) };
  } else {
    area = { x: vv.pageX, y: vv.pageY, width: vv.clientWidth, height: vv.clientHeight };
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(area.width, area.height));
  // Password and secret fields are masked in every picture.
  const res = await withSecretFieldsMasked(s.tab, () =>
    s.page.send('Page.captureScreenshot', { format: 'png', clip: { ...area, scale }, captureBeyondViewport: !!o.fullPage || !!o.handle, fromSurface: true }, 30_000),
  );
  return { data: res.data, width: Math.round(area.width * scale), height: Math.round(area.height * scale), scale, area };
}
