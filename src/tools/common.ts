import { ignore } from '../base/ignore';
import { z } from 'zod';
import { describeNode, callOnElement, describeHandle } from '../actions/element';
import { BrowserAgentError } from '../base/errors';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { ElementFacts, ActionPreview, ToolContext } from '../contract/types';
import { targetAt } from '../actions/pointTarget';
import { boundedRead } from '../actions/pageReads';
import { fingerprint, resolveRef } from './snapshotApi';
import { pageFns } from '../page/fn';
import targetFns from '../page/target.ts?pagefn';

const targetPage = pageFns<typeof import('../page/target')>(targetFns);
import factsFns from '../page/actions/elementFacts.ts?pagefn';

const factsPage = pageFns<typeof import('../page/actions/elementFacts')>(factsFns);

export const refField = z.string().min(1).max(40).describe('Element ref that browser_snapshot or browser_find showed for the current page, e.g. "12" or "f2:5" (refs of an earlier page are refused).');
export const xField = z.number().min(0).max(100_000).describe('X in CSS pixels of the viewport (for vision models; prefer ref).');
export const yField = z.number().min(0).max(100_000).describe('Y in CSS pixels of the viewport.');

/** Refs as models write them: `[12]`, `ref=12`, `e12` all mean 12 only if the snapshot says so; we strip brackets. */
export function normalizeRef(ref: string): string {
  return ref.trim().replace(/^\[(.*)\]$/, '$1').replace(/^ref=/, '');
}

export async function handleFor(tab: Tab, ref: string): Promise<ElementHandle> {
  return resolveRef(tab, normalizeRef(ref));
}

/** Exactly one of ref or x+y. */
export function pickTarget(input: { ref?: string; x?: number; y?: number }, tool: string): { ref: string } | { x: number; y: number } {
  const hasXY = input.x !== undefined || input.y !== undefined;
  if (input.ref && hasXY) throw new BrowserAgentError('INVALID_INPUT', `${tool}: give either ref or x/y, not both.`, 'Use ref when you have one from browser_snapshot.');
  if (input.ref) return { ref: input.ref };
  if (input.x !== undefined && input.y !== undefined) return { x: input.x, y: input.y };
  throw new BrowserAgentError('INVALID_INPUT', `${tool}: give a ref${hasXY ? ', or both x and y' : ' or x and y'}.`, 'Take a browser_snapshot to get refs.');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** The tab a preview may look at, without launching or changing anything. */
async function currentTab(ctx: ToolContext): Promise<Tab | undefined> {
  const browser = ctx.sessions.current;
  if (!browser) return undefined;
  try {
    return await browser.activeTab();
  } catch {
    return undefined;
  }
}

/**
 * A side-effect-free preview for the safety policy and confirmations: the page, and the target
 * element's role, name, tag, type, autocomplete and form context when a ref is given.
 */
export async function previewOf(ctx: ToolContext, verb: string, opts: { ref?: string; x?: number; y?: number; destination?: string; secret?: boolean } = {}): Promise<ActionPreview> {
  const tab = await currentTab(ctx);
  const preview: ActionPreview = { message: verb, url: tab?.url, title: tab?.title, destination: opts.destination, secret: opts.secret };
  let what = '';
  // A crashed tab answers no call: every lookup would wait out its timeout before the handler says PAGE_CRASHED.
  if (tab && opts.ref && !tab.crashed) {
    try {
      const h = await handleFor(tab, opts.ref);
      const { tag, attrs } = await describeNode(h);
      // What the element shows besides its accessible name (visible text, CSS-drawn text, icons, its frame): the policy reads all of it.
      const facts = await callOnElement<ElementFacts | null>(h, factsPage.elementFacts, [false]).catch((e) => ignore(e, 'unread: the policy reads the name and attributes alone', null));
      const form = { inForm: !!facts?.inForm, password: !!facts?.password };
      // Selector and XPath let the audit log re-locate the element at replay, even after it is gone.
      const fp = await fingerprint(tab, h.ref).catch((e) => ignore(e, 'no fingerprint: the paths are computed from the element below'));
      // Every recorded action must carry what replay needs: when the snapshot gave no selector or
      // XPath, they are computed from the element itself; the text near it tells same-named ones apart.
      const path = fp?.selector || fp?.xpath ? undefined : await callOnElement<{ selector: string; xpath: string }>(h, targetPage.elementPaths).catch((e) => ignore(e, 'no path: replay falls back to role and name'));
      const near = await callOnElement<string>(h, targetPage.nearText).catch((e) => ignore(e, 'no text near it: the selector and XPath tell it apart', ''));
      preview.target = {
        ref: h.ref, role: h.role, name: h.name, frame: fp?.frame ?? h.frameId,
        selector: fp?.selector || path?.selector || undefined, xpath: fp?.xpath || path?.xpath || undefined, near: near || undefined,
        tag, type: attrs.type, inputType: attrs.type, autocomplete: attrs.autocomplete, inForm: form.inForm, facts: facts ?? undefined,
      };
      if (form.password || /one-time-code|cc-number|cc-csc/.test(attrs.autocomplete ?? '')) preview.secret = true;
      what = ` ${describeHandle(h)}`;
    } catch {
      preview.target = { ref: opts.ref };
      what = ` element [${opts.ref}]`;
    }
  } else if (opts.ref) {
    preview.target = { ref: opts.ref };
    what = ` element [${opts.ref}]`;
  } else if (opts.x !== undefined && opts.y !== undefined) {
    what = ` at (${Math.round(opts.x)}, ${Math.round(opts.y)})`;
    // A click by coordinates is rated on the element the browser's hit test finds there, like a click by ref.
    // Bounded: a hung page must still be refused at once; the click checks the point again before it acts (atUse.ts).
    const at = tab && !tab.crashed ? await boundedRead(tab, 1000, () => targetAt(tab, { x: opts.x!, y: opts.y! })) : undefined;
    if (at) {
      preview.target = at;
      const label = at.facts?.visible || at.facts?.labels?.[0];
      what += ` on ${at.tag ?? 'element'}${label ? ` "${label.length > 60 ? `${label.slice(0, 57)}…` : label}"` : ''}`;
    }
  }
  const where = opts.destination ? ` ${opts.destination}` : tab?.url ? ` on ${hostOf(tab.url)}` : '';
  preview.message = `${verb}${what}${where}`;
  return preview;
}
