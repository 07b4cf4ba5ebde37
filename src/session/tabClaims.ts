import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignore } from '../base/ignore';
import { processAlive } from '../base/processAlive';

/**
 * Which Browser Agent process works in which tab of a shared browser. Several servers attached to
 * one browser must never pick the same page, even when they start at the same moment; CDP has no
 * exclusive attach, so the claim is a file per (browser, tab) created atomically (`link` fails if it
 * exists) holding the claimant's pid. A claim of a process that died (SIGKILL included) is stale and
 * may be taken over. Works for every server on this machine; for servers on different machines
 * the attach-tab chooser's own signal (another agent's world in the page) remains.
 */
export class TabClaims {
  private readonly dir: string;
  private readonly mine = new Set<string>();

  /** `browserKey`: what identifies the browser for every client, its ws:// debugger URL (it carries the browser's id). */
  constructor(browserKey: string, root = join(tmpdir(), `browser-agent-claims-${process.getuid?.() ?? 'user'}`)) {
    this.dir = join(root, createHash('sha1').update(browserKey).digest('hex').slice(0, 16));
    claimsAlive.add(this);
  }

  private file(targetId: string): string {
    return join(this.dir, targetId.replace(/[^\w-]/g, '_'));
  }

  private holder(targetId: string): number | undefined {
    try {
      const pid = Number(readFileSync(this.file(targetId), 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** True when another live process works in this tab. */
  isClaimed(targetId: string): boolean {
    const pid = this.holder(targetId);
    return pid !== undefined && pid !== process.pid && processAlive(pid, false);
  }

  /** Claims the tab for this process; false when another live process holds it. */
  claim(targetId: string): boolean {
    if (this.mine.has(targetId)) return true;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch {
      return true; // no shared folder: nothing to coordinate through, work as before
    }
    const path = this.file(targetId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const tmp = `${path}.${process.pid}.${attempt}.tmp`;
      try {
        writeFileSync(tmp, String(process.pid), { mode: 0o600 });
        linkSync(tmp, path); // atomic: fails with EEXIST when someone holds it
        this.mine.add(targetId);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return true;
        const pid = this.holder(targetId);
        if (pid === process.pid) {
          this.mine.add(targetId);
          return true;
        }
        if (pid !== undefined && processAlive(pid, false)) return false;
        // The holder died: drop its claim (only if it is still the same stale one) and try again.
        if (this.holder(targetId) === pid) tryUnlink(path);
      } finally {
        tryUnlink(tmp);
      }
    }
    return false;
  }

  release(targetId: string): void {
    if (!this.mine.delete(targetId)) return;
    if (this.holder(targetId) === process.pid) tryUnlink(this.file(targetId));
  }

  releaseAll(): void {
    for (const id of [...this.mine]) this.release(id);
    claimsAlive.delete(this);
  }
}

function tryUnlink(path: string) {
  try {
    unlinkSync(path);
  } catch (e) {
    ignore(e, 'the claim file is gone already');
  }
}

/** Claims are released when the process exits normally; after a crash they are stale (dead pid). */
const claimsAlive = new Set<TabClaims>();
process.once('exit', () => {
  for (const c of claimsAlive) c.releaseAll();
});
