import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfirmRequest } from '../../src/safety/decider';
import { createToolPipeline } from '../../src/safety/pipeline';
import { mapSecretSource, SecretVault } from '../../src/safety/secrets';
import { secureTool } from '../../src/safety/secureTool';
import { sleep } from '../../src/session/launcher';
import { SessionManager } from '../../src/session/manager';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { NO_POLICY, type ToolContext, type ToolDefinition, type ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, toolContext } from '../helpers/tools';
import { sourceFiles, SRC } from '../helpers/sources';

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
const page = (title: string, body: string) => `<!doctype html><meta charset=utf-8><title>${title}</title><script>function hit(c){fetch('/did?c='+encodeURIComponent(c))}</script>${body}`;

function refIn(snapshot: string, role: string, name: string): string {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} "${name}"`).exec(snapshot);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${snapshot}`);
  return m[1];
}

/** The registry's tool, its handler run on a copy of the call's context, as browser_tabs and other helpers make. */
function onACopy(name: string): ToolDefinition {
  const tool = findTool(name)!;
  return { ...tool, handler: (input, ctx) => tool.handler(input, { ...ctx }) };
}

/**
 * The per-call guard (what the decider rated, for the check at the moment of use) rides in the call's context:
 * a copy of the context still checks, and a context without one refuses instead of acting unchecked. Real tools
 * in real Chromium; a page that counts what reached it.
 */
describe('the guard is a field of the call context, and fails closed (real Chromium)', function () {
  this.timeout(90_000);
  let site: TestServer;
  let sessions: SessionManager;
  let ctx: ToolContext;
  const hits: string[] = [];
  const asked: ConfirmRequest[] = [];
  const vault = new SecretVault(mapSecretSource({ API_KEY: 'sk-live-4711' }));
  // The front doors' pipeline, with a person who declines every confirmation.
  const pipeline = createToolPipeline({ decider: realDecider(async (req) => (asked.push(req), 'refuse'), {}, vault), vault });

  const open = async (path: string) => {
    assert.equal((await pipeline.run(findTool('browser_navigate')!, { url: `${site.origin}${path}` }, ctx)).isError, undefined);
    const snap = textOf(await pipeline.run(findTool('browser_snapshot')!, {}, ctx));
    hits.length = 0;
    asked.length = 0;
    return snap;
  };
  /** What the page heard, once its requests had time to arrive. */
  const heard = async () => (await sleep(300), [...hits]);

  before(async () => {
    site = await startServer({
      '/did': (req, res) => {
        hits.push(new URL(req.url ?? '/', 'http://x').searchParams.get('c') ?? '');
        res.end('ok');
      },
      // "Next" until the pointer arrives, then "Pay now": the decider rated "Next"; the check at the moment of use reads "Pay now".
      '/checkout/toctou': page('Checkout', `<button style="position:absolute;left:20px;top:20px;width:200px;height:60px" onpointerenter="this.textContent='Pay now'" onclick="hit('toctou')">Next</button>`),
      '/plain': page('Notes', `<button onclick="hit('clicked')">Save</button><input aria-label="Note" oninput="hit('typed')">`),
    });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    ctx = toolContext(sessions, { maxWaitMs: 5000 }); // as the front doors build it: no guard of its own
  });
  after(async () => {
    await sessions?.close();
    await site?.close();
  });

  it('a copied context ({ ...ctx }) still checks at the moment of use: the button that became "Pay now" is asked about and not clicked', async () => {
    const snap = await open('/checkout/toctou');
    const r = await pipeline.run(onACopy('browser_click'), { ref: refIn(snap, 'button', 'Next') }, ctx);
    assert.equal(r.code, 'BLOCKED_BY_POLICY', textOf(r));
    assert.match(textOf(r), /changed after the safety check.*Pay now.*declined/s);
    assert.equal(asked.length, 1, 'asked once, at the moment of use');
    assert.match(asked[0].preview?.message ?? '', /changed after the check/);
    assert.deepEqual(await heard(), [], 'the page never got the click');
  });

  it('a context with no guard refuses a click, typing and a secret, and the page hears none of them', async () => {
    const snap = await open('/plain');
    const bare = (tool: ToolDefinition, input: unknown) => runTool(tool, input, ctx); // no safety gate at all
    const click = await bare(findTool('browser_click')!, { ref: refIn(snap, 'button', 'Save') });
    assert.equal(click.code, 'BLOCKED_BY_POLICY');
    assert.match(textOf(click), /^BLOCKED_BY_POLICY: Not clicked: this call came without its safety check \(its context has no guard\)/);
    const typed = await bare(findTool('browser_type')!, { ref: refIn(snap, 'textbox', 'Note'), text: 'hello' });
    assert.match(textOf(typed), /^BLOCKED_BY_POLICY: Not typed: this call came without its safety check/);
    const secret = await bare(secureTool(findTool('browser_type')!, vault), { ref: refIn(snap, 'textbox', 'Note'), text: '{{secret:API_KEY}}' });
    assert.match(textOf(secret), /^BLOCKED_BY_POLICY: browser_type was refused: this call came without its safety check/);
    assert.doesNotMatch(textOf(secret), /sk-live-4711/);
    assert.deepEqual(await heard(), [], 'nothing reached the page');
  });

  it('a decision that comes without its guard (a wrapper that dropped it) refuses too', async () => {
    const snap = await open('/plain');
    const decide = async () => ({ decision: { rating: { level: 'auto' as const }, outcome: 'auto' as const } });
    const r = await runTool(findTool('browser_click')!, { ref: refIn(snap, 'button', 'Save') }, ctx, { decide });
    assert.match(textOf(r), /^BLOCKED_BY_POLICY: Not clicked: .*no guard/);
    assert.deepEqual(await heard(), []);
  });

  it('NO_POLICY, the one named way to run without a policy, acts without asking', async () => {
    const snap = await open('/plain');
    const r = await runTool(findTool('browser_click')!, { ref: refIn(snap, 'button', 'Save') }, { ...ctx, guard: NO_POLICY });
    assert.equal(r.isError, undefined, textOf(r));
    assert.deepEqual(await heard(), ['clicked']);
    assert.equal(asked.length, 0);
  });
});

describe('no front door runs without a policy', () => {
  it('nothing in src/ imports NO_POLICY: only the tools\' own tests run without one', () => {
    const importers = sourceFiles().filter((f) => /\bimport\b[^;]*\bNO_POLICY\b[^;]*\bfrom\b/.test(f.code));
    assert.deepEqual(importers.map((f) => f.path), []);
    const spelled = sourceFiles().filter((f) => /\bnoPolicy\b/.test(f.code)).map((f) => f.path);
    assert.deepEqual(spelled.sort(), ['actions/guard.ts', 'contract/types.ts'], 'nor writes one of its own');
    assert.match(readFileSync(join(SRC, 'contract', 'types.ts'), 'utf8'), /export const NO_POLICY\b/, 'declared in the tool contract');
  });
});
