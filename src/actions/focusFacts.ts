import { actWorld } from './actWorld';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { ActionPreview, ElementFacts, PageFacts } from '../contract/types';
import type { FocusRead } from '../page/actions/focus';
import { pageCall, pageFns } from '../page/fn';
import focusFns from '../page/actions/focus.ts?pagefn';

/**
 * Read in the isolated world of a frame (the page's scripts cannot redefine `innerText` or `activeElement` for it).
 */
const focusPage = pageFns<typeof import('../page/actions/focus')>(focusFns);
const WITH_TEXT = pageCall(focusPage.readFocus, true);
const WITHOUT_TEXT = pageCall(focusPage.readFocus, false);
import { boundedRead } from './pageReads';
import { ignore } from '../base/ignore';

async function readIn(session: CdpSession, frameId: string, withText = false): Promise<FocusRead | undefined> {
  const contextId = await actWorld(session, frameId).catch((e) => ignore(e, "no isolated world: read in the page's default one"));
  const res = await session.send('Runtime.evaluate', { expression: withText ? WITH_TEXT : WITHOUT_TEXT, returnByValue: true, ...(contextId ? { contextId } : {}) }, 3000);
  return res.exceptionDetails ? undefined : (res.result.value as FocusRead);
}

interface FrameNode {
  frame: { id: string };
  childFrames?: FrameNode[];
}

function frameIds(node: FrameNode | undefined, out: string[] = []): string[] {
  for (const c of node?.childFrames ?? []) {
    out.push(c.frame.id);
    frameIds(c, out);
  }
  return out;
}

/** The focused element's facts when focus sits in a cross-origin iframe (in process or out of process). */
async function focusInFrames(tab: Tab, main: CdpSession): Promise<ElementFacts | undefined> {
  const places: [CdpSession, string][] = [];
  const tree = await main.send('Page.getFrameTree', undefined, 2000).catch((e) => ignore(e, 'a frame that does not answer is skipped'));
  for (const id of frameIds(tree?.frameTree as FrameNode | undefined)) places.push([main, id]);
  for (const f of tab.frameSessions()) {
    places.push([f.session, f.targetId]);
    const sub = await f.session.send('Page.getFrameTree', undefined, 2000).catch((e) => ignore(e, 'a frame that does not answer is skipped'));
    for (const id of frameIds(sub?.frameTree as FrameNode | undefined)) places.push([f.session, id]);
  }
  const reads = await Promise.all(places.map(([s, id]) => readIn(s, id).catch((e) => ignore(e, 'a frame that does not answer is skipped'))));
  // hasFocus() is also true in the frames that hold the focused frame: the one that holds the element itself counts.
  return reads.find((r) => r?.hasFocus && r.focused && !r.crossFrame)?.focused;
}

function asTarget(f: ElementFacts & { role?: string }): NonNullable<ActionPreview['target']> {
  const isField = /^(input|textarea|select)$/.test(f.tag ?? '');
  return {
    frame: f.inFrame ? f.frameUrl : undefined,
    tag: f.tag,
    type: f.type,
    inputType: isField ? (f.type ?? (f.tag === 'input' ? 'text' : undefined)) : undefined,
    autocomplete: f.autocomplete,
    inForm: f.inForm,
    name: (f.labels?.[0] ?? (isField ? '' : f.visible) ?? '').slice(0, 200) || undefined,
    facts: f,
  };
}

/**
 * The page's visible text and the focused element (for calls without a target: typing into, or pressing a key
 * on, whatever has focus), read where the page cannot tamper with the reading. When the focus is in an
 * iframe of another origin, its facts come from that frame, with the frame's URL: a secret bound to the page
 * must not be typed into it, and the origin lists apply to it.
 */
export async function readFocusAndText(tab: Tab): Promise<PageFacts | undefined> {
  return boundedRead(tab, 2000, () => read(tab));
}

async function read(tab: Tab): Promise<PageFacts | undefined> {
  const main = await tab.session();
  const top = await readIn(main, tab.targetId, true);
  if (!top) return undefined;
  let focused = top.focused;
  if (top.crossFrame) focused = (await focusInFrames(tab, main)) ?? { tag: 'iframe', inFrame: true, frameUrl: 'about:unknown-frame' };
  return { text: top.text, focused: focused ? asTarget(focused) : undefined, ...(focused?.inFrame ? { focusedFrameUrl: focused.frameUrl } : {}) };
}

/**
 * The focused element as a policy target, read now, where the keys or text will go (atUse.ts): undefined when
 * nothing has focus; throws when the page does not answer.
 */
export async function readFocusedTarget(tab: Tab): Promise<NonNullable<ActionPreview['target']> | undefined> {
  const main = await tab.session();
  const top = await readIn(main, tab.targetId);
  if (!top) throw new Error('the page did not answer');
  const focused = top.crossFrame ? ((await focusInFrames(tab, main)) ?? { tag: 'iframe', inFrame: true, frameUrl: 'about:unknown-frame' }) : top.focused;
  return focused ? asTarget(focused) : undefined;
}
