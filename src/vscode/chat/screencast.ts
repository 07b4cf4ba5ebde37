import type { Protocol } from 'devtools-protocol';
import type { Tab } from '../../session/tab';
import type { ElementHandle } from '../../snapshot/types';
import { pageCall, pageFns } from '../../page/fn';
import hitFns from '../../page/hit.ts?pagefn';
import { ignore } from '../../base/ignore';

const hitPage = pageFns<typeof import('../../page/hit')>(hitFns);

export interface Box { x: number; y: number; width: number; height: number }
export type FrameMessage = { type: 'frame'; data: string; width: number; height: number };

/**
 * A live picture of the active tab through CDP Page.startScreencast (works headless too). Frames
 * are acknowledged only after they are handed on, so a slow webview slows the stream instead of
 * piling frames up.
 */
export class Screencast {
  private tab?: Tab;
  private off?: () => void;

  constructor(private readonly post: (m: FrameMessage) => void, private readonly opts = { maxWidth: 960, maxHeight: 720, quality: 55 }) {}

  get target(): Tab | undefined {
    return this.tab;
  }

  /** Starts (or moves) the screencast to this tab. */
  async follow(tab: Tab): Promise<void> {
    if (this.tab === tab && this.off) return;
    await this.stop();
    const session = await tab.session();
    this.tab = tab;
    this.off = session.on('Page.screencastFrame', (f: Protocol.Page.ScreencastFrameEvent) => {
      this.post({ type: 'frame', data: f.data, width: f.metadata.deviceWidth, height: f.metadata.deviceHeight });
      session.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch((e) => ignore(e, 'the tab may be gone; the next frame never comes'));
    });
    await session.send('Page.startScreencast', { format: 'jpeg', quality: this.opts.quality, maxWidth: this.opts.maxWidth, maxHeight: this.opts.maxHeight, everyNthFrame: 1 });
  }

  async stop(): Promise<void> {
    const tab = this.tab;
    this.off?.();
    this.off = undefined;
    this.tab = undefined;
    if (tab?.attached) await (await tab.session()).send('Page.stopScreencast', undefined, 2000).catch((e) => ignore(e, 'the tab may be gone already'));
  }
}

function quadBox(q: number[]): Box {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * Where the element a step acts on is, in viewport CSS pixels: from coordinates, a snapshot ref
 * (through the snapshot layer's resolver) or a CSS selector. Best effort: undefined when unknown.
 */
export async function locateBox(tab: Tab, input: unknown, resolveRef?: (tab: Tab, ref: string) => Promise<ElementHandle | undefined>): Promise<Box | undefined> {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as Record<string, unknown>;
  if (typeof i.x === 'number' && typeof i.y === 'number') return { x: i.x - 12, y: i.y - 12, width: 24, height: 24 };
  const page = await tab.session();
  if (typeof i.ref === 'string' && resolveRef) {
    const h = await resolveRef(tab, i.ref).catch((e) => ignore(e, 'a ref that no longer resolves draws no box'));
    // Elements in out-of-process frames have frame-relative boxes; only page elements are drawn.
    if (h && h.session === page) {
      const m = await h.session.send('DOM.getBoxModel', { backendNodeId: h.backendNodeId }, 1000).catch((e) => ignore(e, 'an element without a box draws none'));
      if (m) return quadBox(m.model.border);
    }
  }
  if (typeof i.selector === 'string') {
    const r = await tab
      .evaluate<Box | null>(pageCall(hitPage.boxOf, i.selector), 1000)
      .catch((e) => ignore(e, 'a selector that finds nothing draws no box', null));
    if (r) return r;
  }
  return undefined;
}
