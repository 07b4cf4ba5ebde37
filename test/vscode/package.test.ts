import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const VSCE = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

/** What `npm run package` ships: vsce runs vscode:prepublish (the production build), then packs .vscodeignore's list. */
describe('package: the .vsix is the minified build, with its icon and docs', function () {
  this.timeout(300_000);
  let dir: string;
  let files: string[];
  let vsixBytes: number;
  let readme: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ba-vsix-'));
    const vsix = join(dir, 'browser-agent.vsix');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
    // As a person without a home for the README's images runs it.
    const env = { ...process.env };
    delete env.BROWSER_AGENT_IMAGES_URL;
    execFileSync(process.execPath, [join(root, 'scripts', 'package.mjs'), '-o', vsix], { cwd: root, stdio: 'pipe', env });
    readme = execFileSync('unzip', ['-p', vsix, 'extension/readme.md'], { encoding: 'utf8' });
    vsixBytes = statSync(vsix).size;
    files = execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ships minified bundles without source maps or sourceMappingURL comments', () => {
    assert.deepEqual(files.filter((f) => f.endsWith('.map') || /^(src|test|out|node_modules)\//.test(f)), []);
    // dist/mcp.js and dist/daemon.js are the bin launchers of the shared dist/cli.js bundle.
    const launchers = ['dist/mcp.js', 'dist/daemon.js'];
    for (const f of launchers) {
      assert.ok(files.includes(f), f);
      assert.match(readFileSync(join(root, f), 'utf8'), /^#!\/usr\/bin\/env node\n'use strict';\n[^\n]*require\('\.\/cli\.js'\)[^\n]*\n$/, f);
    }
    assert.ok(files.includes('dist/cli.js'));
    for (const f of files.filter((x) => x.endsWith('.js') && !launchers.includes(x))) {
      const js = readFileSync(join(root, f), 'utf8');
      assert.doesNotMatch(js, /sourceMappingURL/, f);
      const lines = js.split('\n').length;
      assert.ok(js.length / lines > 500, `${f} is not minified: ${lines} lines for ${js.length} characters`);
    }
  });

  it('ships the icon, the docs the README names, and no placeholder repository', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.icon, 'resources/icon.png');
    assert.ok(files.includes('resources/icon.png'));
    assert.equal(readFileSync(join(root, pkg.icon)).subarray(1, 4).toString(), 'PNG');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const named = [...new Set(readme.match(/docs\/[\w-]+\.md/g) ?? [])];
    assert.ok(named.length > 0);
    assert.deepEqual(named.filter((d) => !files.includes(d)), [], 'every doc the README names is in the package');
    assert.doesNotMatch(JSON.stringify(pkg.repository ?? ''), /example\.invalid/);
  });

  it('without BROWSER_AGENT_IMAGES_URL the Details page leaves the screenshots out (none shows broken); an http home is refused', () => {
    const source = readFileSync(join(root, 'README.md'), 'utf8');
    assert.match(source, /!\[[^\]]*\]\(media\/screens\/[\w-]+\.png\)/, 'the README shows screenshots');
    assert.match(readme, /^# Browser Agent for VS Code/);
    assert.doesNotMatch(readme, /media\/screens|<!-- screens -->/);
    assert.ok(readme.length > source.length * 0.9, 'only the screenshots are left out');
    assert.deepEqual(files.filter((f) => /^media\/screens\/|(^|\/)README\.md$/i.test(f) && f !== 'README.md'), [], 'no screenshots or second README in the package');
    // A home VS Code would not load images from: said before anything is built.
    let err: { status?: number; stderr?: string } = {};
    try {
      execFileSync(process.execPath, [join(root, 'scripts', 'package.mjs'), '-o', join(dir, 'http.vsix')], { cwd: root, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, BROWSER_AGENT_IMAGES_URL: 'http://example.com/x/' } });
    } catch (e) {
      err = e as typeof err;
    }
    assert.equal(err.status, 2);
    assert.match(String(err.stderr), /BROWSER_AGENT_IMAGES_URL must be an https:\/\/ address/);
  });

  it('stays under 1.35 MB, and ships the sandbox engine browser_run_script loads beside the bundles', () => {
    // Measured when the production build was introduced: 1,105,292 bytes before (development build with
    // dangling sourceMappingURL comments, no docs, no icon), 860,696 after (with docs and icon); 1,078,032 with
    // the daemon and skills, 960,964 once zod's non-English locales were left out (esbuild.mjs).
    // 1,000,760 once the companion Chrome extension was shipped in it (issue 18: "Pair Chrome Extension"
    // offers it for "Load unpacked"; its icon is this extension's own, not packed twice).
    // 1,050,551 with the relay's popup guard and the hard-pages fixes; 1,003,798 once the chat webview
    // took zod/mini, imported as a namespace so esbuild drops what it does not use (chat.js 207 KB → 35 KB).
    // 1,050,007 with the snapshot fold's docs (CI failed on it); 1,018,111 once the MCP server and the daemon
    // shared one bundle (dist/cli.js) instead of carrying the engine twice. 1,051,859 with chat threads, verified
    // outcomes, the one-fence envelope and fleets; 1,045,547 once docs/e2e.md (for contributors) stayed out.
    // 1,057,005 with the model setup, replay in the panel and the user README; 1,044,900 once codicon.css kept only
    // the icons the webview names (33 KB → 2.6 KB) and docs/walkthrough.md (a contributors' checklist) stayed out.
    // main reached 1,056,649 with background tabs and the page-code move; 1,001,949 once the webview's icons came
    // as SVG masks (the ones media/chat.ts names, ~5 KB packed) instead of the 61 KB codicon font.
    console.log(`      .vsix: ${vsixBytes} bytes`);
    // Raised on purpose for browser_run_script (issue 32): its sandbox is QuickJS compiled to WebAssembly,
    // dist/quickjs.wasm, 503,134 bytes (234,025 zipped), plus quickjs-emscripten-core in both bundles (~45 KB
    // zipped): 1,324,748 bytes in all. A real sandbox cannot be smaller than its engine; node:vm is not one.
    assert.ok(files.includes('dist/quickjs.wasm'), 'the sandbox engine ships');
    assert.ok(vsixBytes < 1_350_000, `${vsixBytes} bytes`);
  });

  it('the packaged MCP server runs a script: the sandbox finds its engine beside the bundle, with no node_modules around', async () => {
    // The shipped files alone, outside the repository (no node_modules to fall back on), as the .vsix installs them.
    const alone = join(dir, 'installed', 'dist');
    mkdirSync(alone, { recursive: true });
    for (const f of ['cli.js', 'mcp.js', 'quickjs.wasm']) copyFileSync(join(root, 'dist', f), join(alone, f));
    const client = new Client({ name: 'package-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(alone, 'mcp.js'), '--no-daemon', '--audit-dir', 'off'], stderr: 'ignore' }));
    try {
      const r: any = await client.callTool({ name: 'browser_run_script', arguments: { script: 'return [1 + 1, typeof require];' } });
      assert.match(r.content[0].text, /return: \[2,"undefined"\]/, r.content[0].text);
    } finally {
      await client.close();
    }
  });
});
