#!/usr/bin/env node
// `npm run test:e2e`: Browser Agent in a real VS Code extension host (code-server), installed from its .vsix.
//   1. build; install/cache Node 24 + code-server outside the repo (host/install.mjs)
//   2. package the extension and the test-helper extension with vsce; install both with --install-extension
//   3. start code-server on 127.0.0.1 in its own process group
//   4. in-host suite: mocha inside the extension host (inhost/*.suite.ts)
//   5. UI suite: a person's path through the workbench in headless Chromium (ui/*.suite.ts)
//   6. stop everything by process group and assert that no process of this run is left
//   7. the last line gives passed/failed/skipped counts and the verdict: it fails on any failure, on no test
//      run at all, and under CI on any skipped test (host/verdict.mjs)
// Options: --only inhost|ui, --grep <text>, --ui-suite <file> (run these UI suite files instead of ui/*.suite.js;
// repeatable), --keep (keep the temporary folders). See docs/e2e.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, readdirSync, readFileSync, cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost } from './host/install.mjs';
import { freePort, installExtension, startCodeServer, writeServerConfig, writeUserSettings } from './host/codeServer.mjs';
import { runInHostSuite } from './host/inHostRunner.mjs';
import { MARK_VAR, markedProcesses, killGroup, sleep } from './host/processes.mjs';
import { runMochaFiles } from './host/mochaRun.mjs';
import { verdict } from './host/verdict.mjs';
import { startImagesServer } from './host/imagesServer.mjs';
import { packageExtension } from '../../scripts/package.mjs';

const require = createRequire(import.meta.url);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = opt('--only');
const grep = opt('--grep');
const keep = argv.includes('--keep');
const uiSuites = argv.flatMap((a, i) => (argv[i - 1] === '--ui-suite' ? [resolve(a)] : []));

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const step = (msg) => process.stdout.write(`[e2e ${secs()}] ${msg}\n`);

const runId = `${process.pid}-${Date.now().toString(36)}`;
// Every process this run starts (code-server, extension host, each Chromium) inherits the mark; the leak
// check at the end finds them by it.
process.env[MARK_VAR] = runId;

const artifactsDir = join(repo, 'test-artifacts', 'e2e');
const work = mkdtempSync(join(tmpdir(), 'ba-e2e-'));
const dirs = {
  userDataDir: join(work, 'user-data'),
  extensionsDir: join(work, 'extensions'),
  configFile: join(work, 'code-server.yaml'),
};
const workspace = join(work, 'workspace');
const resultsDir = join(work, 'results');
const daemonDir = join(work, 'daemon');

let server;
let browser;
let images;
const failures = [];
/** Counts per suite that ran, for the verdict. */
const suites = [];

function readCounts(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function main() {
  rmSync(artifactsDir, { recursive: true, force: true });
  for (const d of [artifactsDir, dirs.userDataDir, dirs.extensionsDir, workspace, resultsDir]) mkdirSync(d, { recursive: true });

  step('building');
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'inherit' });

  step('ensuring the host (Node 24 + code-server) is installed');
  const host = await ensureHost({ log: (s) => step(s.trim()) });

  step('packaging the extension with vsce');
  const vsix = join(work, 'browser-agent.vsix');
  const helperVsix = join(work, 'browser-agent-e2e-helper.vsix');
  const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
  // The README's screenshots get an https home on 127.0.0.1, as a publisher's BROWSER_AGENT_IMAGES_URL gives them.
  images = await startImagesServer({ repo });
  step(`README images served at ${images.url}`);
  // vsce runs vscode:prepublish: the production build (minified, no source maps), exactly what npm run package ships.
  packageExtension({ out: vsix, imagesUrl: images.url, stdio: ['ignore', 'inherit', 'inherit'] });
  const helperDir = join(work, 'test-extension');
  cpSync(join(repo, 'test', 'e2e', 'fixtures', 'test-extension'), helperDir, { recursive: true });
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', helperVsix], { cwd: helperDir, stdio: ['ignore', 'inherit', 'inherit'] });
  // A scripted language model (registerLanguageModelChatProvider) for the chat panel's vscode.lm path.
  const lmDir = join(work, 'lm-test-provider');
  const lmVsix = join(work, 'browser-agent-lm-test-provider.vsix');
  cpSync(join(repo, 'test', 'e2e', 'fixtures', 'lm-test-provider'), lmDir, { recursive: true });
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', lmVsix], { cwd: lmDir, stdio: ['ignore', 'inherit', 'inherit'] });

  writeServerConfig(dirs);
  // Two settings under their old keys, as a user of an earlier version has them: the settings UI suite checks
  // that activation moved them to the new keys (src/vscode/settingMoves.ts). Both are the defaults.
  writeUserSettings(dirs.userDataDir, { 'browserAgent.mcp.publish': false, 'browserAgent.agent.vscodeLm.model': '' });
  // The session daemon the extension starts (sharing, the Chrome extension relay) gets a folder of this
  // run's own and the relay a free port: never the user's daemon, never another run's.
  Object.assign(process.env, { BROWSER_AGENT_DAEMON_DIR: daemonDir, BROWSER_AGENT_RELAY_PORT: String(await freePort()) });
  const env = { ...process.env, BA_E2E_RESULTS: resultsDir, ...(grep ? { BA_E2E_GREP: grep } : {}) };
  step('installing the .vsix files with code-server --install-extension');
  for (const v of [vsix, helperVsix, lmVsix]) step(await installExtension(host, dirs, v, env));

  step('starting code-server');
  server = await startCodeServer(host, dirs, { env, workspace, logFile: join(artifactsDir, 'code-server.log') });
  step(`code-server up at ${server.origin} (pid/pgid ${server.pid})`);

  const { chromium } = require('playwright-core');
  // It accepts the README images server's self-signed certificate (the Details page loads them from there).
  browser = await chromium.launch({ executablePath: process.env.BA_E2E_CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--ignore-certificate-errors'] });

  if (!only || only === 'inhost') {
    step('in-host suite (mocha inside the extension host)');
    const r = await runInHostSuite({
      browser,
      server,
      testExtensionDir: helperDir,
      testsIndex: join(repo, 'out', 'test', 'e2e', 'inhost', 'inhost.index.js'),
      artifactsDir,
      print: (s) => process.stdout.write(s),
    });
    step(`in-host suite ${r.ok ? 'passed' : `FAILED: ${r.reason}`} in ${(r.ms / 1000).toFixed(1)}s`);
    // The suite writes its counts itself (inhost.index.ts); missing counts mean it never finished.
    const counts = readCounts(join(resultsDir, 'inhost-counts.json'));
    suites.push({ name: 'in-host', passed: 0, failed: 0, skipped: 0, ...counts, ...(r.ok ? {} : { error: r.reason }), ...(counts ? {} : { error: r.reason || 'the in-host suite reported no counts' }) });
  }

  if (!only || only === 'ui') {
    step('UI suite (the workbench in headless Chromium)');
    Object.assign(process.env, {
      BA_E2E_WORKBENCH_URL: server.url(),
      BA_E2E_RESULTS: resultsDir,
      BA_E2E_ARTIFACTS: artifactsDir,
      BA_E2E_USER_DATA: dirs.userDataDir,
    });
    const uiDir = join(repo, 'out', 'test', 'e2e', 'ui');
    globalThis.__baE2eBrowser = browser;
    globalThis.__baE2eImages = images;
    const files = uiSuites.length ? uiSuites : readdirSync(uiDir).filter((n) => n.endsWith('.suite.js')).sort().map((f) => join(uiDir, f));
    const counts = await runMochaFiles(files, { grep });
    step(`UI suite: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    suites.push({ name: 'UI', ...counts });
  }
}

async function shutdown() {
  step('shutting down');
  await browser?.close().catch(() => {});
  await images?.close().catch(() => {});
  // A daemon the extension host started runs detached (it outlives a window by design): stop it.
  try {
    execFileSync(process.execPath, [join(repo, 'dist', 'daemon.js'), 'stop'], { env: { ...process.env, BROWSER_AGENT_DAEMON_DIR: daemonDir }, stdio: 'ignore', timeout: 15_000 });
  } catch {
    /* none was running */
  }
  if (server) step(`code-server process group: ${await server.stop()}`);
  // Give exiting children a moment, then look for anything of this run that survived.
  let left = markedProcesses(runId);
  for (let i = 0; i < 40 && left.length; i++) {
    await sleep(100);
    left = markedProcesses(runId);
  }
  if (left.length) {
    failures.push(`${left.length} process(es) of this run outlived the shutdown:\n${left.map((p) => `  ${p.pid} ${p.cmd}`).join('\n')}`);
    for (const p of left) {
      killGroup(p.pid, 'SIGKILL');
      try { process.kill(p.pid, 'SIGKILL'); } catch {}
    }
  } else {
    step('no code-server, extension host or Chromium process of this run is left');
  }
  if (keep) step(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

// Ctrl-C must not leave code-server or a browser behind.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    failures.push(`interrupted by ${sig}`);
    shutdown().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (e) {
  failures.push(`runner: ${e?.stack ?? e}`);
} finally {
  await shutdown();
}
step(`artifacts in ${artifactsDir}`);
const v = verdict(suites, { problems: failures });
if (!v.ok) process.stderr.write(`\nE2E failed because:\n- ${v.reasons.join('\n- ')}\n`);
// The last line: counts and the verdict.
process.stdout.write(`${v.line}\n`);
process.exit(v.ok ? 0 : 1);
