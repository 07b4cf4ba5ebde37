import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { buildSync } from 'esbuild';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TabClaims } from '../../src/session/tabClaims';
import { isAgentWorld, worldName } from '../../src/session/worlds';

/** Claims a tab from another process (the same file protocol, written by hand) and stays alive until killed. */
function otherProcessClaim(dir: string, file: string) {
  const child = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(join(dir, file))}, String(process.pid)); setInterval(() => {}, 1000)`], { stdio: 'ignore' });
  return child;
}

describe('session: tab claims between servers on one browser', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'ba-claims-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('one claimant per tab; a claim of a dead process is taken over; released claims are free', async () => {
    const mine = new TabClaims('ws://127.0.0.1:9222/devtools/browser/abc', root);
    assert.equal(mine.claim('T1'), true);
    assert.equal(mine.claim('T1'), true, 'claiming twice is fine');
    assert.equal(mine.isClaimed('T1'), false, 'my own claim does not block me');
    const dir: string = (mine as any).dir;
    const other = otherProcessClaim(dir, 'T2');
    // Written, not only created: an empty claim file (the write still under way) names no live process.
    const written = () => existsSync(join(dir, 'T2')) && readFileSync(join(dir, 'T2'), 'utf8') === String(other.pid);
    for (let i = 0; i < 400 && !written(); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(mine.isClaimed('T2'), true, 'another live process holds T2');
    assert.equal(mine.claim('T2'), false);
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    assert.equal(mine.isClaimed('T2'), false, 'a dead holder holds nothing');
    assert.equal(mine.claim('T2'), true, 'and its tab can be claimed');
    mine.release('T1');
    const again = new TabClaims('ws://127.0.0.1:9222/devtools/browser/abc', root);
    assert.equal(again.isClaimed('T1'), false);
    const otherBrowser = new TabClaims('ws://127.0.0.1:9222/devtools/browser/def', root);
    assert.equal(otherBrowser.isClaimed('T2'), false, 'claims are per browser');
    mine.releaseAll();
  });

  it('claims made at the same moment by six processes: exactly one wins', async () => {
    // The real TabClaims, bundled for plain Node children: six processes race for one tab.
    const bundle = join(root, 'claims.js');
    buildSync({ entryPoints: [join(__dirname, '..', '..', '..', 'src', 'session', 'tabClaims.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });
    // Each racer says 'ready', waits for 'go' (sent to all at once), claims, and holds its claim
    // until its stdin closes: a slow start under load must not find the winner already gone.
    const racer = `const { TabClaims } = require(${JSON.stringify(bundle)});
      const c = new TabClaims('ws://x/devtools/browser/race', ${JSON.stringify(root)});
      process.stdin.once('data', () => process.stdout.write(c.claim('PAGE') ? 'won' : 'lost'));
      process.stdin.on('end', () => process.exit(0));
      process.stdout.write('ready ');`;
    const children = Array.from({ length: 6 }, () => spawn(process.execPath, ['-e', racer], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const outputs = children.map((c) => {
      let out = '';
      c.stdout!.on('data', (d) => (out += d));
      return () => out;
    });
    const waitAll = async (done: (o: string) => boolean) => {
      for (let i = 0; i < 1200 && !outputs.every((o) => done(o())); i++) await new Promise((r) => setTimeout(r, 25));
    };
    await waitAll((o) => o.startsWith('ready '));
    for (const c of children) c.stdin!.write('go\n');
    await waitAll((o) => /ready (won|lost)$/.test(o));
    const outs = outputs.map((o) => o().replace('ready ', ''));
    assert.equal(outs.filter((o) => o === 'won').length, 1, outs.join(','));
    const observer = new TabClaims('ws://x/devtools/browser/race', root);
    assert.equal(observer.isClaimed('PAGE'), true, 'the winner holds it while it lives');
    const exited = children.map((c) => new Promise((r) => (c.exitCode !== null ? r(undefined) : c.once('exit', r))));
    for (const c of children) c.stdin!.end();
    await Promise.all(exited);
    assert.equal(observer.isClaimed('PAGE'), false, 'and nobody once it exited');
  });

  it('isolated worlds are named per process, and still recognisable as Browser Agent worlds', () => {
    // The pid in base36, this machine's tag, random bytes (worlds.ts tells a gone agent's world by them).
    assert.match(worldName(), new RegExp(`^browser-agent:${process.pid.toString(36)}\\.[0-9a-f]{6}\\.[0-9a-f]{6}$`));
    assert.match(worldName('extract'), /^browser-agent:[0-9a-z]+\.[0-9a-f]{6}\.[0-9a-f]{6}:extract$/);
    assert.notEqual(worldName(), 'browser-agent');
    assert.equal(isAgentWorld(worldName()), true);
    assert.equal(isAgentWorld('browser-agent'), true, 'older servers’ worlds too');
    assert.equal(isAgentWorld('puppeteer_world'), false);
  });
});
