// Mocha configuration for `npm run test:unit` (a .cjs file, not JSON, so it can decide two things):
// - Under CI (CI set to anything but "" / "0" / "false") a skipped test fails the run (--forbid-pending):
//   a suite that skips itself in CI would otherwise look like a pass.
// - Test files named on the command line replace the default spec instead of being added to it, and a
//   `test/…/x.test.ts` source path runs its built `out/test/…/x.test.js` (rebuilt first when a source is newer).
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = __dirname;

// Every temporary folder a test or a browser it starts makes (profiles, downloads, audit folders, Chromium's
// socket folders) goes into one folder for this run, removed when the run ends: runs used to leave thousands
// of folders in the temp directory. Child processes inherit TMPDIR, and so does Chromium.
if (!process.env.BA_TEST_TMPDIR) {
  const fs = require('node:fs');
  const dir = fs.mkdtempSync(join(require('node:os').tmpdir(), 'ba-test-run-'));
  process.env.BA_TEST_TMPDIR = process.env.TMPDIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 }));
}

// No test reaches the user's own session daemon: a server started without --no-daemon (or a test daemon
// without its own folder) gets one daemon folder for this run, inherited by every child process.
if (!process.env.BROWSER_AGENT_DAEMON_DIR) {
  process.env.BROWSER_AGENT_DAEMON_DIR = require('node:fs').mkdtempSync(join(require('node:os').tmpdir(), 'ba-test-daemon-'));
}
const ci = !!process.env.CI && !/^(0|false)$/i.test(process.env.CI);

// Options whose next argument is a value, never a spec.
const VALUE_OPTIONS = new Set(['--config', '--require', '-r', '--file', '--ignore', '--exclude', '--extension', '--reporter', '-R', '--reporter-option', '-O', '--grep', '-g', '--fgrep', '-f', '--timeout', '-t', '--slow', '-s', '--ui', '-u', '--package', '--spec']);
const args = process.argv.slice(2);
const given = args.filter((a, i) => !a.startsWith('-') && !VALUE_OPTIONS.has(args[i - 1] ?? '') && /\.[cm]?[jt]s$|\*/.test(a));

/** test/a/b.test.ts → out/test/a/b.test.js (what esbuild.mjs writes). */
const built = (p) => (/\.ts$/.test(p) && !relative(root, resolve(p)).startsWith('out') ? join('out', relative(root, resolve(p))).replace(/\.ts$/, '.js') : p);

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const config = {
  spec: ['out/test/**/*.test.js'],
  ignore: ['out/test/e2e/**'],
  timeout: 30000,
  reporter: 'spec',
  exit: true,
  'forbid-pending': ci,
};

if (given.length) {
  const specs = given.map(built);
  const sources = given.some((p) => p !== built(p));
  if (sources) {
    const sourceTime = Math.max(...['src', 'test', 'media'].map((d) => newest(join(root, d))));
    if (specs.some((s) => !existsSync(s) || statSync(s).mtimeMs < sourceTime)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  }
  // Mocha runs positional files *and* `spec`: the spec becomes just the built files, and a given
  // .ts source is ignored (its built .js runs instead; mocha cannot load the `?inpage` imports).
  config.spec = specs.filter((s) => !given.includes(s));
  config.ignore.push(...given.filter((p) => p !== built(p)));
}

module.exports = config;
