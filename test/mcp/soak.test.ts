// The 2-minute run of issue 33: a person works in a headed Chromium (under Xvfb) with their tab focused, and six
// agents work beside them at the same time for BA_SOAK_MS (default 2 minutes): three real MCP servers through the
// session daemon attached to that browser with --cdp-url --attach-tab new, and three --extension clients through
// the Chrome extension relay (the built extension, paired with its own daemon). Each agent loops a
// navigate–snapshot–type–click task in its own tab, checked against the page (the page reports what it saved to
// the test's server). The person's page logs every blur, focus, visibility and lifecycle event and samples
// document.hasFocus() every 50 ms; none may happen, their field stays empty, and every task succeeds.
import assert from 'node:assert/strict';
import { URL } from 'node:url';
import { daemonEnv, runDaemonCli, spawnMcp, type McpProc } from '../helpers/daemon';
import { freePort, pairedChrome, type ChromeWithExtension } from '../helpers/relay';
import { PERSON_PAGE, personFocused, personState, skipWithoutXvfb, startXvfb } from '../helpers/headed';
import { inCI } from '../helpers/corpus';
import { startServer, type TestServer } from '../helpers/servers';

const SOAK_MS = Number(process.env.BA_SOAK_MS) || 120_000;

/** A task page: the note typed is sent to the server on Save, with the agent's name and task number. */
const TASK_PAGE = `<!doctype html><title>task</title>
<label>Note <input id=note></label>
<button id=save>Save</button>
<p id=out>unsaved</p>
<script>
const q = new URLSearchParams(location.search);
document.getElementById('save').addEventListener('click', async () => {
  const note = document.getElementById('note').value;
  await fetch('/done?' + new URLSearchParams({ who: q.get('who'), n: q.get('n'), note }));
  document.getElementById('out').textContent = 'Saved ' + note;
});
</script>`;

interface Agent {
  name: string;
  door: 'daemon' | 'relay';
  mcp: McpProc;
  tasks: number;
  failures: string[];
  callMs: number[];
}

function refOf(snapshot: string, line: RegExp): string {
  const m = line.exec(snapshot);
  if (!m) throw new Error(`${line} not in:\n${snapshot}`);
  return m[1];
}

/** One task: any error or unexpected answer is a failure of that task (recorded, and the loop goes on). */
async function task(a: Agent, origin: string, n: number): Promise<void> {
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const t0 = performance.now();
    const r = await a.mcp.call(tool, args);
    a.callMs.push(performance.now() - t0);
    if (r.isError) throw new Error(`${tool}: ${r.text.slice(0, 500)}`);
    return r.text;
  };
  const note = `${a.name}-${n}`;
  const url = `${origin}/task?who=${a.name}&n=${n}`;
  // Every fourth task the way a model that juggles tabs works: in a second tab, then back to the first and
  // closing the second (tab switches of an agent are its own; the browser's selected tab stays the person's).
  const inNewTab = n % 4 === 0;
  if (inNewTab) await call('browser_tabs', { action: 'new', url });
  else await call('browser_navigate', { url });
  const snap = await call('browser_snapshot');
  await call('browser_type', { ref: refOf(snap, /\[(\d+)\] textbox "Note"/), text: note });
  await call('browser_click', { ref: refOf(snap, /\[(\d+)\] button "Save"/) });
  await call('browser_wait', { text: `Saved ${note}`, timeoutMs: 30_000 });
  if (inNewTab) {
    await call('browser_tabs', { action: 'select', index: 0 });
    await call('browser_tabs', { action: 'close', index: 1 });
  }
}

async function loop(a: Agent, origin: string, until: number): Promise<void> {
  for (let n = 1; Date.now() < until; n++) {
    try {
      await task(a, origin, n);
      a.tasks++;
    } catch (e) {
      a.failures.push(`task ${n}: ${(e as Error).message}`);
    }
  }
}

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? NaN;

describe(`soak (issue 33): three daemon agents and three relay agents for ${Math.round(SOAK_MS / 1000)} s beside a person's focused tab (headed Chromium under Xvfb)`, function () {
  this.timeout(SOAK_MS + 180_000);
  let xvfb: { display: string; stop(): Promise<void> } | undefined;
  let chrome: ChromeWithExtension | undefined;
  let srv: TestServer;
  let relayEnv: Record<string, string>;
  let attachEnv: Record<string, string>;
  const agents: Agent[] = [];
  /** What the page reported on each Save: `who n` → the note it saved. */
  const saved = new Map<string, string>();

  before(async function () {
    skipWithoutXvfb(this, inCI());
    srv = await startServer({
      '/person': PERSON_PAGE,
      '/task': TASK_PAGE,
      '/done': (req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams;
        saved.set(`${q.get('who')} ${q.get('n')}`, q.get('note') ?? '');
        res.writeHead(204).end();
      },
    });
    xvfb = await startXvfb();
    relayEnv = { ...daemonEnv(5000, 'direct'), BROWSER_AGENT_RELAY_PORT: String(await freePort()) };
    // The daemon agents' daemon is another one, with the default transport for an attached browser (proxy).
    attachEnv = daemonEnv(5000);
    ({ chrome } = await pairedChrome(relayEnv, { display: xvfb.display }));
  });
  after(async () => {
    for (const a of agents) await a.mcp.close().catch(() => undefined);
    for (const env of [relayEnv, attachEnv]) if (env) await runDaemonCli(env, 'stop');
    await chrome?.stop();
    await xvfb?.stop();
    await srv?.close();
  });

  it('every task of every agent succeeds; the person\'s tab never loses focus or visibility and their field stays empty', async () => {
    const person = await chrome!.open(srv.origin + '/person');
    await personFocused(chrome!.conn, person.targetId);
    const cdpUrl = chrome!.browser.wsEndpoint.replace(/\/devtools\/.*/, '').replace('ws:', 'http:');
    const attachArgs = ['--cdp-url', cdpUrl, '--attach-tab', 'new', '--audit-dir', 'off', '--allow-confirm-actions'];
    const relayArgs = ['--extension', '--allow-confirm-actions', '--audit-dir', 'off'];
    const start = async (name: string, door: Agent['door']) => {
      const mcp = await spawnMcp(door === 'daemon' ? attachEnv : relayEnv, door === 'daemon' ? attachArgs : relayArgs, name);
      agents.push({ name, door, mcp, tasks: 0, failures: [], callMs: [] });
    };
    for (const name of ['chat', 'copilot', 'external']) await start(name, 'daemon');
    for (const name of ['relay1', 'relay2', 'relay3']) await start(name, 'relay');

    // An agent after the person's tab (told its id by a page, say): it cannot see it, select it, or list it.
    for (const a of agents) {
      const r = await a.mcp.call('browser_tabs', { action: 'select', id: person.targetId });
      assert.ok(r.isError && /TAB_CLOSED/.test(r.text), `${a.name} cannot select the person's tab: ${r.text}`);
      assert.doesNotMatch((await a.mcp.call('browser_tabs', { action: 'list' })).text, /\/person/, `${a.name} does not see the person's tab`);
    }

    // Besides the page's own 50 ms sampling: the test looks at the person's tab every 2 s over its own connection.
    const samples: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = await personState(chrome!.conn, person.targetId);
        if (!s.hasFocus || s.visibility !== 'visible' || s.log.length) samples.push(`${new Date().toISOString()} ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    const began = Date.now();
    await Promise.all(agents.map((a) => loop(a, srv.origin, began + SOAK_MS)));
    sampling = false;
    await sampler;
    const ranMs = Date.now() - began;

    for (const door of ['daemon', 'relay'] as const) {
      const mine = agents.filter((a) => a.door === door);
      const ms = mine.flatMap((a) => a.callMs);
      console.log(`      ${door}: ${mine.map((a) => `${a.name} ${a.tasks}`).join(', ')} tasks in ${Math.round(ranMs / 1000)} s; ${ms.length} calls, median ${median(ms).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`);
    }
    assert.deepEqual(agents.flatMap((a) => a.failures.map((f) => `${a.name} ${f}`)), [], 'every task succeeded');
    for (const a of agents) {
      assert.ok(a.tasks >= 1, `${a.name} did at least one task`);
      for (let n = 1; n <= a.tasks; n++) assert.equal(saved.get(`${a.name} ${n}`), `${a.name}-${n}`, `${a.name}'s task ${n} saved its own note in its own page`);
    }
    // Each agent in a tab of its own: six tabs, each showing its own agent's page.
    const tabs = (await chrome!.conn.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page' && new URL(t.url).pathname === '/task');
    assert.deepEqual(tabs.map((t) => new URL(t.url).searchParams.get('who')).sort(), agents.map((a) => a.name).sort(), 'one tab per agent');

    assert.deepEqual(samples, [], 'the person\'s tab kept focus and visibility at every sample of the test');
    const s = await personState(chrome!.conn, person.targetId);
    assert.deepEqual(s.log, [], 'the person\'s page saw no blur, focus, visibilitychange, pagehide or freeze');
    assert.equal(s.lost, 0, 'document.hasFocus() stayed true in the person\'s tab (sampled every 50 ms)');
    assert.equal(s.hasFocus, true);
    assert.equal(s.visibility, 'visible');
    assert.equal(s.typed, '', 'nothing the agents typed reached the person\'s field');
  });
});
