// Small real tools for the audit tests, acting on a real Chromium page over CDP until the
// project's own tools land: refs are `n<backendNodeId>` in the main frame.
import { z } from 'zod';
import { BrowserAgentError } from '../../src/errors';
import { axRoleName } from '../../src/audit/relocate';
import type { BrowserSession } from '../../src/session/browserSession';
import type { SessionManager } from '../../src/session/manager';
import type { Tab } from '../../src/session/tab';
import type { Decision } from '../../src/safety/types';
import type { RunHooks } from '../../src/tools/runner';
import { defineTool, text, type TargetFingerprint, type ToolContext, type ToolDefinition } from '../../src/tools/types';

export function contextFor(s: BrowserSession): ToolContext {
  return {
    sessions: { current: s } as unknown as SessionManager,
    browser: async () => s,
    tab: () => s.activeTab(),
    settings: { allowedSchemes: [], downloadsDir: '/tmp', maxWaitMs: 10_000 },
  };
}

export async function refFor(tab: Tab, selector: string): Promise<string> {
  const session = await tab.session();
  const { result } = await session.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(selector)})` });
  if (!result.objectId) throw new Error(`no element for ${selector}`);
  const { node } = await session.send('DOM.describeNode', { objectId: result.objectId });
  return `n${node.backendNodeId}`;
}

async function resolve(tab: Tab, ref: string) {
  const m = /^n(\d+)$/.exec(ref);
  if (!m) throw new BrowserAgentError('STALE_REF', `Unknown ref ${ref}.`, 'Take a new snapshot.');
  const session = await tab.session();
  try {
    const { object } = await session.send('DOM.resolveNode', { backendNodeId: Number(m[1]) });
    return { session, objectId: object.objectId!, backendNodeId: Number(m[1]) };
  } catch {
    throw new BrowserAgentError('STALE_REF', `Ref ${ref} is gone.`, 'Take a new snapshot.');
  }
}

const PATHS_FN = `function () {
  const el = this;
  const css = (e) => {
    if (e.id && document.querySelectorAll('#' + CSS.escape(e.id)).length === 1) return '#' + CSS.escape(e.id);
    const parent = e.parentElement;
    if (!parent) return e.localName;
    const same = [...parent.children].filter((c) => c.localName === e.localName);
    return css(parent) + ' > ' + e.localName + (same.length > 1 ? ':nth-of-type(' + (same.indexOf(e) + 1) + ')' : '');
  };
  const xp = (e) => {
    if (!e.parentElement) return '/' + e.localName;
    const same = [...e.parentElement.children].filter((c) => c.localName === e.localName);
    return xp(e.parentElement) + '/' + e.localName + '[' + (same.indexOf(e) + 1) + ']';
  };
  return { selector: css(el), xpath: xp(el), tag: el.localName, inputType: el.type, placeholder: el.placeholder || '' };
}`;

/** What the snapshot's fingerprint(tab, ref) will give: role, name, frame, selector, xpath. */
export async function fingerprintOf(tab: Tab, ref: string): Promise<TargetFingerprint & { inputType?: string; placeholder?: string; tag?: string }> {
  const { session, objectId, backendNodeId } = await resolve(tab, ref);
  const { result } = await session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: PATHS_FN, returnByValue: true });
  const { role, name } = await axRoleName(session, backendNodeId);
  return { ref, role, name, frame: tab.targetId, ...result.value };
}

export const navigateTool = defineTool({
  name: 'browser_navigate',
  title: 'Navigate',
  description: 'Go to a URL.',
  schema: z.object({ url: z.string() }),
  risk: 'navigate',
  async preview(input, ctx) {
    const tab = await ctx.tab();
    return { message: `Opening ${input.url}`, url: tab.url, title: tab.title, destination: input.url };
  },
  async handler(input, ctx) {
    const tab = await ctx.tab();
    const session = await tab.session();
    const urlBefore = tab.url;
    const loaded = session.waitFor('Page.loadEventFired', undefined, 10_000);
    await session.send('Page.navigate', { url: input.url });
    await loaded;
    await tab.refreshInfo();
    return { ...text(`Opened ${tab.url} — "${tab.title}"`), meta: { urlBefore, urlAfter: tab.url, titleAfter: tab.title } };
  },
});

export const clickTool = defineTool({
  name: 'browser_click',
  title: 'Click',
  description: 'Click an element by ref.',
  schema: z.object({ ref: z.string() }),
  risk: 'input',
  async preview(input, ctx) {
    const tab = await ctx.tab();
    const target = await fingerprintOf(tab, input.ref);
    return { message: `Clicking ${target.role} "${target.name}"`, url: tab.url, title: tab.title, target };
  },
  async handler(input, ctx) {
    const tab = await ctx.tab();
    const target = await fingerprintOf(tab, input.ref);
    const urlBefore = tab.url;
    const { session, objectId } = await resolve(tab, input.ref);
    const loaded = session.waitFor('Page.loadEventFired', undefined, 3000).catch(() => undefined);
    await session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: 'function () { this.click(); }' });
    await loaded;
    await tab.refreshInfo();
    return { ...text(`Clicked ${target.role} "${target.name}"`), meta: { target, urlBefore, urlAfter: tab.url, titleAfter: tab.title } };
  },
});

export const typeTool = defineTool({
  name: 'browser_type',
  title: 'Type',
  description: 'Type text into a field by ref.',
  schema: z.object({ ref: z.string(), text: z.string(), submit: z.boolean().optional() }),
  risk: 'input',
  async preview(input, ctx) {
    const tab = await ctx.tab();
    const target = await fingerprintOf(tab, input.ref);
    const secret = target.inputType === 'password' || /secret|token|password|api key/i.test(target.placeholder ?? '');
    return { message: `Typing into ${target.role} "${target.name}"`, url: tab.url, title: tab.title, target, secret };
  },
  async handler(input, ctx) {
    const tab = await ctx.tab();
    const target = await fingerprintOf(tab, input.ref);
    const { session, objectId } = await resolve(tab, input.ref);
    await session.send('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: `function (v) { this.focus(); this.value = v; this.dispatchEvent(new Event('input', { bubbles: true })); }`,
      arguments: [{ value: input.text }],
    });
    // Echo the text, as a careless tool might: the audit log must still not contain secrets.
    return { ...text(`Typed "${input.text}" into ${target.role} "${target.name}"`), meta: { target, urlBefore: tab.url, urlAfter: tab.url, titleAfter: tab.title } };
  },
});

export const snapshotTool = defineTool({
  name: 'browser_snapshot',
  title: 'Snapshot',
  description: 'Page text.',
  schema: z.object({}),
  risk: 'read',
  readOnly: true,
  async handler(_input, ctx) {
    const tab = await ctx.tab();
    return text(await tab.evaluate<string>('document.body.innerText'));
  },
});

/** Secrets the tests' stand-in for the safety layer's vault knows, by name. */
export const SECRETS: Record<string, string> = { ACCOUNT: 'ACCT-7788-9911-SECRET' };
const PLACEHOLDER = /\{\{\s*secret:([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/**
 * Stand-in for the safety layer's secureTool: `{{secret:NAME}}` is resolved only for the handler,
 * so the runner, the decider and the audit see the placeholder (the result may echo the value).
 */
export function withSecretPlaceholders<T extends ToolDefinition>(tool: T): T {
  const resolve = (v: unknown): unknown =>
    typeof v === 'string' ? v.replace(PLACEHOLDER, (_, n: string) => SECRETS[n] ?? '') : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)])) : v;
  return { ...tool, handler: (input: any, ctx: ToolContext) => tool.handler(resolve(input) as any, ctx) };
}

export const testTools: ToolDefinition[] = ([navigateTool, clickTool, typeTool, snapshotTool] as ToolDefinition[]).map(withSecretPlaceholders);
export const findTestTool = (name: string) => testTools.find((t) => t.name === name);

/** A small decider standing in for the safety policy: secrets confirm, sign-in buttons notify, "Delete" is refused. */
export function testDecider(log: string[] = []): NonNullable<RunHooks['decide']> {
  return async (tool, _input, preview): Promise<Decision> => {
    log.push(`${tool.name}:${preview?.target?.name ?? ''}`);
    if (preview?.secret) return { rating: { level: 'confirm', rule: 'secret-input', reason: 'typing a secret' }, outcome: 'allowed' };
    if (/delete/i.test(preview?.target?.name ?? '')) return { rating: { level: 'confirm', rule: 'destructive-button', reason: 'deletes data' }, outcome: 'refused' };
    if (tool.name === 'browser_click') return { rating: { level: 'notify', rule: 'form-submit', reason: 'submits a form' }, outcome: 'notified' };
    return { rating: { level: 'auto' }, outcome: 'auto' };
  };
}


/** A stand-in for the snapshot's ref listing: every button and input of the main frame, with AX role and name. */
export const testSnapshotApi = {
  async candidates(tab: Tab) {
    const ids = await tab.evaluate<string[]>(`[...document.querySelectorAll('button, input')].map((e, i) => (e.dataset.i = String(i), i))`);
    const out: { ref: string; role: string; name: string }[] = [];
    for (const i of ids) {
      const ref = await refFor(tab, `[data-i="${i}"]`);
      const { role, name } = await axRoleName(await tab.session(), Number(ref.slice(1)));
      out.push({ ref, role, name });
    }
    return out;
  },
  async resolveRef(tab: Tab, ref: string) {
    const { session, backendNodeId } = await resolve(tab, ref);
    const { role, name } = await axRoleName(session, backendNodeId);
    return { ref, role, name, session, frameId: tab.targetId, backendNodeId };
  },
};
