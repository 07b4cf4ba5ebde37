// The daemon's socket hands whoever answers on it every page and every typed secret: a client must
// never talk to a socket another user controls, and the daemon listens nowhere else.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateSocket } from '../../src/daemon/paths';
import { alive, daemonEnv, listeningTcpPorts, runDaemonCli, spawnMcp, until } from '../helpers/daemon';

const ROOT = process.getuid?.() === 0;
/** Another user: `nobody` when we can hand files to it (root); otherwise root, who owns /. */
const OTHER_UID = ROOT ? 65534 : 0;

/** A fake daemon that records whether anyone connected to it. */
function fakeDaemon(path: string): Promise<{ server: Server; connections: number }> {
  const state = { server: undefined as unknown as Server, connections: 0 };
  state.server = createServer((s) => {
    state.connections++;
    s.end('{"t":"welcome","v":1,"daemonPid":1,"session":"evil","kind":"launched","endpoint":"ws://127.0.0.1:9/evil","tabs":[]}\n');
  });
  return new Promise((resolve) => state.server.listen(path, () => resolve(state)));
}

describe('daemon: another user’s folder or socket is never used (attacker cases)', function () {
  this.timeout(90_000);

  it('a daemon folder another user owns: clients and the daemon refuse it with a clear error, nothing connects', async () => {
    const env = daemonEnv(1500);
    let dir = env.BROWSER_AGENT_DAEMON_DIR;
    let fake: Awaited<ReturnType<typeof fakeDaemon>> | undefined;
    if (ROOT) {
      chmodSync(dir, 0o777);
      fake = await fakeDaemon(join(dir, 'daemon.sock'));
      chmodSync(join(dir, 'daemon.sock'), 0o777);
      chownSync(join(dir, 'daemon.sock'), OTHER_UID, OTHER_UID);
      chownSync(dir, OTHER_UID, OTHER_UID);
    } else {
      dir = '/'; // owned by root: as good as another user's
    }
    try {
      const m = await spawnMcp({ ...env, BROWSER_AGENT_DAEMON_DIR: dir }, undefined, 'victim');
      const r = await m.call('browser_navigate', { url: 'about:blank' });
      await m.close();
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /belongs to another user/);
      const cli = await runDaemonCli({ ...env, BROWSER_AGENT_DAEMON_DIR: dir }, 'run');
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, /belongs to another user/);
      if (fake) assert.equal(fake.connections, 0, 'the planted socket was never connected to');
    } finally {
      fake?.server.close();
      if (ROOT) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a socket planted in our folder while it was open to others is removed, never connected to; the folder is made 0700', async () => {
    const env = daemonEnv(1500);
    const dir = env.BROWSER_AGENT_DAEMON_DIR;
    chmodSync(dir, 0o777);
    const fake = await fakeDaemon(join(dir, 'daemon.sock'));
    // Only root can give a file in our folder to someone else; otherwise the planted file is a
    // listening socket replaced by a plain file (not a socket: removed the same way).
    if (ROOT) chownSync(join(dir, 'daemon.sock'), OTHER_UID, OTHER_UID);
    else {
      fake.server.close();
      writeFileSync(join(dir, 'daemon.sock'), 'not a socket');
    }
    const m = await spawnMcp(env, undefined, 'victim');
    try {
      const r = await m.call('browser_navigate', { url: 'about:blank' });
      assert.equal(r.isError, false, r.text);
      assert.equal(fake.connections, 0, 'the planted socket was never connected to');
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      const sock = lstatSync(join(dir, 'daemon.sock'));
      assert.ok(sock.isSocket());
      assert.equal(sock.uid, process.getuid!(), 'the socket is now our daemon’s');
      assert.equal(sock.mode & 0o777, 0o600);
      const st = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
      assert.equal(st.sessions.length, 1);
      // What `ss -ltnp` shows for the daemon: nothing. (Checked with ss itself where it is installed.)
      assert.deepEqual(listeningTcpPorts(st.pid), []);
      let ss = '';
      try {
        ss = execFileSync('ss', ['-ltnp'], { encoding: 'utf8' });
      } catch {
        /* no ss: /proc above is what it reads */
      }
      assert.doesNotMatch(ss, new RegExp(`pid=${st.pid},`));
      await m.close();
      await until(() => !alive(st.pid), 15_000, 'the idle daemon to exit');
    } finally {
      fake.server.close();
      await m.close().catch(() => {});
    }
  });

  it('a daemon folder that is a symbolic link (to a folder someone else may control) is refused', () => {
    const parent = mkdtempSync(join(tmpdir(), 'bad-link-'));
    mkdirSync(join(parent, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(parent, 'elsewhere'), join(parent, 'd'));
    const dir = join(parent, 'd');
    assert.throws(() => ensurePrivateSocket({ dir, socket: join(dir, 'daemon.sock'), startLock: '', log: '', browsers: '' }), /is not a folder/);
    rmSync(parent, { recursive: true, force: true });
  });

  it('a folder of ours that others could enter is made private before use', () => {
    const parent = mkdtempSync(join(tmpdir(), 'bad-perm-'));
    const dir = join(parent, 'd');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    ensurePrivateSocket({ dir, socket: join(dir, 'daemon.sock'), startLock: '', log: '', browsers: '' });
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    rmSync(parent, { recursive: true, force: true });
  });
});
