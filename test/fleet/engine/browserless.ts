// A real browserless server for the fleet suite: installed on first use (install.mjs), started on 127.0.0.1 in a
// process group of its own with a token and a pool, every process of it (Node, each Chromium it launches) marked
// in its environment, so the suite can count its browsers and prove that none is left.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { findBrowserExecutable, sleep } from '../../../src/session/launcher';
import { MARK_VAR, markedProcesses, stopGroup } from '../../e2e/host/processes.mjs';
import { ensureBrowserless } from './install.mjs';

const REPO = join(__dirname, '..', '..', '..');
const START_SCRIPT = join(REPO, 'test', 'fleet', 'engine', 'start-browserless.mjs');

export interface BrowserlessOptions {
  token: string;
  /** Browsers at once (CONCURRENT). */
  pool: number;
  /** Connections that may wait for a browser (QUEUED); 0 refuses at once with HTTP 429. */
  queued?: number;
  logFile: string;
  log?: (s: string) => void;
}

export interface BrowserlessServer {
  origin: string;
  /** The CDP endpoint a client gives as --cdp-url: ws://127.0.0.1:<port>?token=… */
  endpoint: string;
  /** Marks every process of this server (and of whatever else the suite starts with it). */
  runId: string;
  /** Browsers launched for WebSocket connections so far, from the engine's own log. */
  launches(): number;
  /** The engine's view: its running browsers and, for each, how many connections it has. */
  browsers(): Promise<{ id: string; connections: number }[]>;
  /** Ends every session the engine runs (as its /kill route does for an operator). */
  killAll(): Promise<void>;
  stop(): Promise<string>;
  /** Processes of this run still alive. */
  leftovers(): { pid: number; cmd: string }[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** playwright-core's expected Chromium path under `browsersPath`, made a symbolic link to this machine's Chromium. */
function linkChromium(nodeBin: string, installDir: string, browsersPath: string) {
  const expected = execFileSync(nodeBin, ['-e', "process.stdout.write(require('playwright-core').chromium.executablePath())"], {
    cwd: installDir,
    env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsersPath },
    encoding: 'utf8',
  });
  const chromium = findBrowserExecutable(process.env.BA_E2E_CHROMIUM);
  mkdirSync(dirname(expected), { recursive: true });
  let current: string | undefined;
  try {
    current = readlinkSync(expected);
  } catch {
    /* not there yet */
  }
  if (current === chromium) return;
  // Another checkout may start its engine at the same moment: a new link renamed into place, never a gap.
  const tmp = `${expected}.${process.pid}`;
  rmSync(tmp, { force: true });
  symlinkSync(chromium, tmp);
  renameSync(tmp, expected);
}

export async function startBrowserless(opts: BrowserlessOptions): Promise<BrowserlessServer> {
  const paths = await ensureBrowserless({ log: opts.log });
  linkChromium(paths.nodeBin, paths.dir, paths.browsersPath);
  const port = await freePort();
  const runId = `fleet-${process.pid}-${Date.now().toString(36)}`;
  const out = openSync(opts.logFile, 'w');
  const child = spawn(paths.nodeBin, [START_SCRIPT], {
    detached: true,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      [MARK_VAR]: runId,
      BROWSERLESS_ENTRY: paths.entry,
      PLAYWRIGHT_BROWSERS_PATH: paths.browsersPath,
      HOST: '127.0.0.1',
      PORT: String(port),
      TOKEN: opts.token,
      CONCURRENT: String(opts.pool),
      QUEUED: String(opts.queued ?? 0),
      // Its session time limit (default 30 s) would end the sessions of a slow run: ten minutes.
      TIMEOUT: '600000',
      DEBUG: 'browserless*',
    },
  });
  closeSync(out);
  const pgid = child.pid!;
  const log = () => readFileSync(opts.logFile, 'utf8');
  const origin = `http://127.0.0.1:${port}`;
  const api = (path: string) => fetch(`${origin}${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(opts.token)}`);
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 120_000;
  while (!/browserless started/.test(log())) {
    if (exited || Date.now() > deadline) {
      await stopGroup(pgid, 2000);
      throw new Error(`browserless did not start${exited ? ' (it exited)' : ' within 120 s'}:\n${log().slice(-3000)}`);
    }
    await sleep(200);
  }
  return {
    origin,
    endpoint: `ws://127.0.0.1:${port}?token=${encodeURIComponent(opts.token)}`,
    runId,
    // One line per browser it starts for a WebSocket client (its /json/version route starts one of its own).
    launches: () => (log().match(/WebSocketRoute:info .*Starting new ChromiumCDP instance/g) ?? []).length,
    async browsers() {
      // The engine lists each browser's pages by fetching its /json/list: while a browser is closing that fetch
      // fails and the whole answer is an error ("TypeError: fetch failed"), so a failed answer is asked again.
      for (let tries = 1; ; tries++) {
        const res = await api('/sessions');
        const text = await res.text();
        if (res.ok) {
          const list = JSON.parse(text) as { type: string; browserId: string; numbConnected: number }[];
          return list.filter((s) => s.type === 'browser').map((s) => ({ id: s.browserId, connections: s.numbConnected }));
        }
        if (tries === 25) throw new Error(`/sessions answered HTTP ${res.status} ${tries} times: ${text.slice(0, 300)}`);
        await sleep(200);
      }
    },
    async killAll() {
      const res = await api('/kill/all');
      if (!res.ok) throw new Error(`/kill/all answered HTTP ${res.status}`);
    },
    stop: () => stopGroup(pgid, 10_000),
    leftovers: () => markedProcesses(runId),
  };
}
