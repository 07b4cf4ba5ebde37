import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBrowserExecutable, groupAlive, readDevToolsActivePort, sleep } from '../../src/session/launcher';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { launchedBrowserOf } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';

const PAGE = `<!doctype html><title>Form</title><button>Save draft</button><button>Publish</button>`;

/** A Chromium the test owns, on a fixed port so it can be restarted "at the same address". */
function startChromium(port: number, profileDir: string) {
  const child = spawn(findBrowserExecutable(), ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${port}`, `--user-data-dir=${profileDir}`, 'about:blank'], { detached: true, stdio: 'ignore' });
  return child.pid!;
}

async function waitEndpoint(profileDir: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const ws = readDevToolsActivePort(profileDir);
    if (ws) return ws;
    await sleep(20);
  }
  throw new Error('chromium did not start');
}

function refOf(snapshot: string, name: string): string {
  const m = new RegExp(`\\[(\\d+)\\] button "${name}"`).exec(snapshot);
  assert.ok(m, `a ref for ${name} in:\n${snapshot}`);
  return m[1];
}

describe('session: the first result after a relaunch or reattach says so', function () {
  this.timeout(90_000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/': PAGE });
  });
  after(() => srv.close());

  it('launched: the browser is killed between calls; the next result says it was relaunched, old refs give STALE_REF', async () => {
    const mcp: McpProcess = await startMcp(HEADLESS_ARGS);
    try {
      await mcp.call('browser_navigate', { url: srv.url });
      const snap = await mcp.call('browser_snapshot');
      const ref = refOf(snap.text, 'Publish');
      const browser = launchedBrowserOf(mcp.pid)!;
      process.kill(-browser.pid, 'SIGKILL');
      for (let i = 0; i < 100 && groupAlive(browser.pid); i++) await sleep(50);
      await sleep(300);

      // The next call uses a ref from before: it hears of the relaunch and gets STALE_REF, nothing is clicked.
      const click = await mcp.call('browser_click', { ref });
      assert.equal(click.isError, true, click.text);
      assert.match(click.text, /^Note: the browser had exited or crashed since the last call and was relaunched\./);
      assert.match(click.text, new RegExp(`\\nSTALE_REF: Ref ${ref} \\(button "Publish"\\) is no longer on the page\\.`));
      const snap2 = await mcp.call('browser_snapshot');
      assert.equal(snap2.isError, false, snap2.text);
      assert.doesNotMatch(snap2.text, /relaunched/, 'only the first result carries the notice');
      assert.match(snap2.text, /about:blank/, 'the new browser shows a blank tab');
    } finally {
      await mcp.close();
    }
  });

  it('attached: the browser goes away and comes back at the same address; the next result says it reattached', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'ba-reattach-'));
    let pid = startChromium(0, profile);
    const port = Number(new URL(await waitEndpoint(profile)).port);
    const mcp = await startMcp(['--cdp-url', `http://127.0.0.1:${port}`]);
    try {
      await mcp.call('browser_navigate', { url: srv.url });
      const ref = refOf((await mcp.call('browser_snapshot')).text, 'Save draft');
      process.kill(-pid, 'SIGKILL');
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(50);
      rmSync(profile, { recursive: true, force: true });
      pid = startChromium(port, profile);
      // With a fixed port Chromium does not write DevToolsActivePort; ask the port itself.
      for (let i = 0; i < 200; i++) {
        if (await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.ok, () => false)) break;
        await sleep(50);
      }

      const click = await mcp.call('browser_click', { ref });
      assert.equal(click.isError, true, click.text);
      assert.match(click.text, /^Note: the connection to the browser was lost and Browser Agent reattached\./);
      assert.match(click.text, /\nSTALE_REF: Ref \d+ \(button "Save draft"\) is no longer on the page/);
      const next = await mcp.call('browser_navigate', { url: srv.url });
      assert.equal(next.isError, false, next.text);
      assert.doesNotMatch(next.text, /reattached/);
    } finally {
      await mcp.close();
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
