import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupAudit } from '../../src/audit/retention';

describe('audit: retention cleanup', () => {
  let root: string;
  const DAY = 86_400_000;
  const now = Date.now();

  async function task(name: string, ageDays: number, bytes: number) {
    const dir = join(root, name);
    await fs.mkdir(dir);
    await fs.writeFile(join(dir, 'log.jsonl'), 'x'.repeat(bytes));
    const t = new Date(now - ageDays * DAY);
    await fs.utimes(join(dir, 'log.jsonl'), t, t);
  }

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'ba-retention-'));
    await task('a-old', 40, 1000);
    await task('b-mid', 10, 600_000);
    await task('c-new', 1, 600_000);
    await task('d-open', 50, 10);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('deletes folders older than retentionDays, never the open ones', async () => {
    const r = await cleanupAudit(root, { retentionDays: 30, maxSizeMB: 0 }, new Set(['d-open']), now);
    assert.deepEqual(r.deleted, ['a-old']);
    assert.deepEqual((await fs.readdir(root)).sort(), ['b-mid', 'c-new', 'd-open']);
  });

  it('deletes the oldest folders until the total fits maxSizeMB', async () => {
    const r = await cleanupAudit(root, { retentionDays: 0, maxSizeMB: 1 }, new Set(['d-open']), now);
    assert.deepEqual(r.deleted, ['a-old', 'b-mid']);
    assert.equal(r.keptBytes, 600_000);
    assert.deepEqual((await fs.readdir(root)).sort(), ['c-new', 'd-open']);
  });

  it('keeps everything with both limits off, and copes with a missing root', async () => {
    assert.deepEqual((await cleanupAudit(root, { retentionDays: 0, maxSizeMB: 0 }, new Set(), now)).deleted, []);
    assert.deepEqual(await cleanupAudit(join(root, 'nope'), { retentionDays: 1, maxSizeMB: 1 }), { deleted: [], keptBytes: 0 });
  });
});
