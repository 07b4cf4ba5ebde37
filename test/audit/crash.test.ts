import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listTasks, loadTask, LOG_FILE } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';

// Run as a child process (the same bundled file): record steps until killed.
if (process.env.BA_AUDIT_CRASH_ROOT) {
  const task = new AuditRecorder({ root: process.env.BA_AUDIT_CRASH_ROOT }).startTask('crashing task', { source: 'mcp' });
  let i = 0;
  const loop = async () => {
    for (;;) {
      i++;
      await task.recordStep(async () => ({
        ts: new Date().toISOString(), tool: 'browser_type', input: { ref: String(i), text: 'y'.repeat(20_000) }, before: {}, after: {},
        risk: 'auto', decision: 'auto', ok: true, durationMs: 1, result: 'z'.repeat(30_000),
      }));
    }
  };
  void loop();
} else {
  describe('audit: a process killed mid-task', function () {
    this.timeout(60_000);
    let root: string;
    before(() => (root = mkdtempSync(join(tmpdir(), 'ba-crash-'))));
    after(() => rmSync(root, { recursive: true, force: true }));

    it('leaves a log that loads up to the last whole step', async () => {
      const child = spawn(process.execPath, [__filename], { env: { ...process.env, BA_AUDIT_CRASH_ROOT: root }, stdio: 'ignore' });
      try {
        // Kill it (SIGKILL: no exit handlers, no fsync) once it has written a good number of steps.
        const deadline = Date.now() + 30_000;
        for (;;) {
          const dirs = readdirSync(root);
          // The task folder appears a moment before its log file.
          const log = dirs.length ? join(root, dirs[0], LOG_FILE) : undefined;
          const size = log && existsSync(log) ? readFileSync(log).length : 0;
          if (size > 2_000_000) break;
          if (Date.now() > deadline) throw new Error('the child did not write');
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        child.kill('SIGKILL');
      }
      await new Promise((r) => child.once('exit', r));
      const [dir] = readdirSync(root);
      const t = await loadTask(join(root, dir));
      assert.equal(t.start?.goal, 'crashing task');
      assert.equal(t.end, undefined);
      assert.ok(t.steps.length >= 30, `${t.steps.length} steps`);
      assert.deepEqual(t.steps.map((s) => s.step), t.steps.map((_, i) => i + 1), 'whole steps, in order, none missing');
      assert.ok(t.warnings.some((w) => /no end event/.test(w)));
      const [summary] = await listTasks(root);
      assert.equal(summary.steps, t.steps.length);
      assert.equal(summary.outcome, undefined);
    });
  });
}
