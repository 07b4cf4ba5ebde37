import { z } from 'zod';
import { BrowserAgentError } from '../../src/errors';
import { sleep } from '../../src/session/launcher';
import type { SessionManager } from '../../src/session/manager';
import { defineTool, text, type ToolContext, type ToolDefinition } from '../../src/tools/types';

/**
 * Small real tools for the agent tests, acting on a real page over CDP, until the real tool set
 * (actions branch) is on main. Snapshot lines look like the real snapshot's: `[3] button "Save"`.
 */
const SNAPSHOT_JS = `(() => {
  let n = 0;
  const lines = ['Page: ' + document.title + ' — ' + location.href];
  for (const el of document.querySelectorAll('h1,h2,p,[role=status],button,input,a,select,textarea')) {
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute('role') || ({ a: 'link', button: 'button', input: 'textbox', select: 'combobox', textarea: 'textbox', h1: 'heading', h2: 'heading', p: 'text' })[tag];
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || el.value || '').trim().slice(0, 80);
    if (/^(h1|h2|p)$/.test(tag) || role === 'status') { if (name) lines.push('- ' + role + ' "' + name + '"'); continue; }
    el.setAttribute('data-ba-ref', String(++n));
    lines.push('[' + n + '] ' + role + ' "' + name + '"');
  }
  return lines.join('\\n');
})()`;

async function centerOf(ctx: ToolContext, ref: string): Promise<{ x: number; y: number; name: string }> {
  const tab = await ctx.tab();
  const r = await tab.evaluate<{ x: number; y: number; name: string } | null>(`(() => {
    const el = document.querySelector('[data-ba-ref="${ref.replace(/[^\w:-]/g, '')}"]');
    if (!el) return null;
    el.scrollIntoView({ block: 'center' });
    const b = el.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, name: (el.textContent || el.getAttribute('placeholder') || '').trim() };
  })()`);
  if (!r) throw new BrowserAgentError('STALE_REF', `No element with ref ${ref} on the page.`, 'Take a new snapshot and use a ref from it.');
  return r;
}

export function testTools(): ToolDefinition[] {
  return [
    defineTool({
      name: 'browser_navigate', title: 'Navigate', risk: 'navigate',
      description: 'Open a URL in the current tab.',
      schema: z.object({ url: z.string().url() }),
      async handler({ url }, ctx) {
        const tab = await ctx.tab();
        const s = await tab.session();
        const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
        await s.send('Page.navigate', { url });
        await loaded;
        return text(`Navigated to ${url}`);
      },
    }),
    defineTool({
      name: 'browser_snapshot', title: 'Snapshot', risk: 'read', readOnly: true,
      description: 'The page as a list of elements with refs.',
      schema: z.object({}),
      async handler(_i, ctx) {
        return text(await (await ctx.tab()).evaluate<string>(SNAPSHOT_JS));
      },
    }),
    defineTool({
      name: 'browser_click', title: 'Click', risk: 'input',
      description: 'Click the element with this ref.',
      schema: z.object({ ref: z.string() }),
      async preview({ ref }, ctx) {
        const c = await centerOf(ctx, ref);
        return { message: `Clicking "${c.name}"`, target: { ref, name: c.name } };
      },
      async handler({ ref }, ctx) {
        const { x, y, name } = await centerOf(ctx, ref);
        const s = await (await ctx.tab()).session();
        for (const type of ['mousePressed', 'mouseReleased'] as const) await s.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
        return { content: [{ type: 'text', text: `Clicked "${name}"` }], meta: { target: { ref, name } } };
      },
    }),
    defineTool({
      name: 'browser_type', title: 'Type', risk: 'input',
      description: 'Type text into the field with this ref.',
      schema: z.object({ ref: z.string(), text: z.string() }),
      async handler({ ref, text: t }, ctx) {
        const { x, y } = await centerOf(ctx, ref);
        const s = await (await ctx.tab()).session();
        for (const type of ['mousePressed', 'mouseReleased'] as const) await s.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
        await s.send('Input.insertText', { text: t });
        return text(`Typed into ref ${ref}`);
      },
    }),
    defineTool({
      name: 'browser_screenshot', title: 'Screenshot', risk: 'read', readOnly: true,
      description: 'A screenshot of the viewport.',
      schema: z.object({}),
      async handler(_i, ctx) {
        const s = await (await ctx.tab()).session();
        const { data } = await s.send('Page.captureScreenshot', { format: 'jpeg', quality: 50 });
        return { content: [{ type: 'image', data, mimeType: 'image/jpeg' }] };
      },
    }),
    defineTool({
      name: 'browser_wait_for_text', title: 'Wait for text', risk: 'read', readOnly: true,
      description: 'Wait until the text appears on the page.',
      schema: z.object({ text: z.string(), timeoutMs: z.number().default(30_000) }),
      async handler({ text: t, timeoutMs }, ctx) {
        const tab = await ctx.tab();
        const end = Date.now() + timeoutMs;
        while (Date.now() < end) {
          if (ctx.signal?.aborted) throw new BrowserAgentError('CANCELLED', 'Wait cancelled.');
          if (await tab.evaluate<boolean>(`document.body.innerText.includes(${JSON.stringify(t)})`)) return text(`Found "${t}"`);
          await sleep(100);
        }
        throw new BrowserAgentError('TIMEOUT', `"${t}" did not appear.`);
      },
    }),
  ];
}

export function testContext(sessions: SessionManager): Omit<ToolContext, 'signal'> {
  return {
    sessions,
    browser: () => sessions.ensure(),
    tab: async () => (await sessions.ensure()).activeTab(),
    settings: { allowedSchemes: [], downloadsDir: '/tmp', maxWaitMs: 30_000 },
  };
}
