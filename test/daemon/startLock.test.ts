// The daemon's start lock (a folder made with mkdir) left behind by a starter that was killed while holding
// it: real folders, real processes. Before, any lock younger than 10 s held every start for up to 10 s, and a
// lock whose owner's pid had been reused was judged by its age alone.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processStartTime, withStartLock } from '../../src/daemon/startLock';

describe('daemon: a start lock left by a killed starter', function () {
  this.timeout(30_000);
  const plant = (owner?: string) => {
    const lock = join(mkdtempSync(join(tmpdir(), 'ba-lock-')), 'start.lock');
    mkdirSync(lock);
    if (owner !== undefined) writeFileSync(join(lock, 'owner'), owner);
    return lock;
  };
  const took = async (lock: string, waitMs: number) => {
    const t0 = Date.now();
    const ok = await withStartLock(lock, async () => existsSync(join(lock, 'owner')), waitMs).then(
      (v) => v,
      () => false,
    );
    return { ok, ms: Date.now() - t0 };
  };

  it('whose owner is dead is taken over at once', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const r = await took(plant(`${dead} 12345`), 3000);
    assert.equal(r.ok, true, 'taken (and owned by us while held)');
    assert.ok(r.ms < 1000, `took ${r.ms} ms`);
  });

  it('whose owner pid now belongs to another process (pid reused) is taken over at once', async () => {
    const stranger = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const r = await took(plant(`${stranger.pid} 1`), 3000);
      assert.equal(r.ok, true);
      assert.ok(r.ms < 1000, `took ${r.ms} ms`);
      assert.equal(stranger.exitCode, null, 'the stranger is left alone');
    } finally {
      stranger.kill();
    }
  });

  it('whose owner still runs is respected', async () => {
    const starter = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const lock = plant(`${starter.pid} ${processStartTime(starter.pid!)}`);
      const r = await took(lock, 600);
      assert.equal(r.ok, false, 'not taken while its owner runs');
      assert.ok(existsSync(lock));
    } finally {
      starter.kill();
    }
  });

  it('without an owner file: respected while young (its starter is between mkdir and the write), taken once old', async () => {
    const young = plant();
    assert.equal((await took(young, 600)).ok, false);
    const old = plant();
    const past = new Date(Date.now() - 20_000);
    utimesSync(old, past, past);
    assert.equal((await took(old, 3000)).ok, true);
  });
});
