import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ignore } from '../base/ignore';

export interface RetentionPolicy {
  /** Task folders older than this are deleted; 0 keeps them forever. */
  retentionDays: number;
  /** The oldest task folders are deleted until the total is under this; 0 means no limit. */
  maxSizeMB: number;
}

export interface CleanupReport {
  deleted: string[];
  keptBytes: number;
}

async function folderSize(dir: string): Promise<{ bytes: number; mtimeMs: number }> {
  let bytes = 0;
  let mtimeMs = 0;
  for (const name of await fs.readdir(dir)) {
    const st = await fs.stat(join(dir, name)).catch((e) => ignore(e, 'a file removed meanwhile is not counted'));
    if (!st?.isFile()) continue;
    bytes += st.size;
    mtimeMs = Math.max(mtimeMs, st.mtimeMs);
  }
  return { bytes, mtimeMs };
}

/**
 * Applies the retention settings to the audit root: first by age (last write), then by total
 * size, oldest first. Folders in `keep` (tasks still being written) are never touched.
 */
export async function cleanupAudit(root: string, policy: RetentionPolicy, keep: Set<string> = new Set(), now = Date.now()): Promise<CleanupReport> {
  let names: string[];
  try {
    names = await fs.readdir(root);
  } catch {
    return { deleted: [], keptBytes: 0 };
  }
  const folders: { name: string; bytes: number; mtimeMs: number }[] = [];
  for (const name of names) {
    const st = await fs.stat(join(root, name)).catch((e) => ignore(e, 'a folder removed meanwhile is not counted'));
    if (!st?.isDirectory() || keep.has(name)) continue;
    folders.push({ name, ...(await folderSize(join(root, name))) });
  }
  folders.sort((a, b) => a.mtimeMs - b.mtimeMs);
  const deleted: string[] = [];
  const remove = async (name: string) => {
    await fs.rm(join(root, name), { recursive: true, force: true });
    deleted.push(name);
  };
  const cutoff = policy.retentionDays > 0 ? now - policy.retentionDays * 86_400_000 : -Infinity;
  const left = [];
  for (const f of folders) {
    if (f.mtimeMs < cutoff) await remove(f.name);
    else left.push(f);
  }
  let total = left.reduce((n, f) => n + f.bytes, 0);
  const limit = policy.maxSizeMB > 0 ? policy.maxSizeMB * 1024 * 1024 : Infinity;
  while (total > limit && left.length) {
    const f = left.shift()!;
    await remove(f.name);
    total -= f.bytes;
  }
  return { deleted, keptBytes: total };
}
