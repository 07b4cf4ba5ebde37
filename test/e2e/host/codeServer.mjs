// Starts code-server (a real VS Code 1.139 extension host behind a web workbench) on 127.0.0.1, in its own
// process group so that stopping it stops everything it spawned.
import { spawn, execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { stopGroup, sleep } from './processes.mjs';

/** Settings for the e2e user: no telemetry (a built-in's failed network call would surface as an error in
 *  mocha), no start-up editor, and a headless browser that can only reach 127.0.0.1. */
export function writeUserSettings(userDataDir, extra = {}) {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'security.workspace.trust.enabled': false,
    'update.mode': 'none',
    'browserAgent.browser.headless': 'on',
    'browserAgent.browser.executablePath': '/usr/bin/chromium',
    'browserAgent.browser.args': ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost', '--disable-quic'],
    ...extra,
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

/** Our own config file, so code-server never writes ~/.config/code-server/config.yaml. */
export function writeServerConfig(dirs) {
  writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function commonArgs(dirs) {
  return ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir, '--config', dirs.configFile];
}

/** `code-server --install-extension x.vsix`, exactly what a user runs. */
export function installExtension(host, dirs, vsix, env) {
  return new Promise((resolve, reject) => {
    execFile(
      host.nodeBin,
      [host.codeServerEntry, ...commonArgs(dirs), '--install-extension', vsix, '--force'],
      { env, timeout: 120_000, maxBuffer: 4 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`installing ${vsix} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(stdout.trim());
      },
    );
  });
}

/**
 * Starts code-server and waits until /healthz answers. `smokeTestDriver` enables the development-mode page
 * payload (extensionDevelopmentPath / extensionTestsPath in the URL) used by the in-host suite.
 */
export async function startCodeServer(host, dirs, { env, workspace, logFile, timeoutMs = 120_000 }) {
  const port = await freePort();
  const args = [
    host.codeServerEntry,
    ...commonArgs(dirs),
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--vscode-option', 'enable-smoke-test-driver',
    workspace,
  ];
  const log = createWriteStream(logFile);
  // detached: setsid, so the whole tree (server, extension host, anything they spawn in-group) is one group.
  const child = spawn(host.nodeBin, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`code-server exited during start-up (${exited}); see ${logFile}`);
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stopGroup(child.pid);
      throw new Error(`code-server did not answer /healthz within ${timeoutMs} ms; see ${logFile}`);
    }
    await sleep(250);
  }
  return {
    origin,
    port,
    pid: child.pid,
    workspace,
    /** The workbench URL for a folder, optionally with a development-mode payload. */
    url(payload) {
      const q = new URLSearchParams({ folder: workspace });
      if (payload) q.set('payload', JSON.stringify(payload));
      return `${origin}/?${q}`;
    },
    /** A server-side path as the workbench addresses it in a payload. */
    remoteUri(absPath) {
      return `vscode-remote://127.0.0.1:${port}${absPath}`;
    },
    async stop() {
      const how = await stopGroup(child.pid, 8000);
      log.end();
      return how;
    },
  };
}
