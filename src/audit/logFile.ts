import { promises as fs } from 'node:fs';
import type { AuditEvent } from './types';
import { ignore } from '../base/ignore';

/**
 * An append-only JSONL file. Each event is one `write` of a whole line on a file opened with
 * O_APPEND, so a crash leaves at most one partial line at the end (which the reader skips).
 * Writes are serialised so step lines never interleave.
 */
export class JsonlAppender {
  private chain: Promise<unknown> = Promise.resolve();
  private handle?: fs.FileHandle;
  private closed = false;

  constructor(readonly path: string) {}

  append(event: AuditEvent): Promise<void> {
    const line = JSON.stringify(event) + '\n';
    const next = this.chain.then(async () => {
      if (this.closed) throw new Error(`audit log ${this.path} is closed`);
      this.handle ??= await fs.open(this.path, 'a', 0o600);
      // One write per line; a short write (rare, e.g. disk full) is completed rather than left torn.
      const buf = Buffer.from(line);
      let off = 0;
      while (off < buf.length) off += (await this.handle.write(buf, off)).bytesWritten;
    });
    this.chain = next.catch((e) => ignore(e, 'the caller of this write gets its error; the chain goes on'));
    return next;
  }

  /** Flushes to disk (fsync) and closes; later appends fail. */
  close(): Promise<void> {
    const next = this.chain.then(async () => {
      if (this.closed) return;
      this.closed = true;
      if (this.handle) {
        await this.handle.sync();
        await this.handle.close();
        this.handle = undefined;
      }
    });
    this.chain = next.catch((e) => ignore(e, 'the caller of this write gets its error; the chain goes on'));
    return next;
  }
}
