// Which relayed requests this extension already started, kept in chrome.storage.session so it
// survives the service worker being stopped (not a browser restart: then the daemon's requests are
// gone too). A request re-sent after a reconnect is never run twice.
import { RELAY_INTERRUPTED } from '../../src/session/relayProtocol';

interface Stored {
  epoch: string;
  lastStarted: number;
}

export type Answer = { result?: unknown; error?: { code?: number; message: string } };

export class Journal {
  private epoch = '';
  private lastStarted = 0;
  /** Answers of this worker's life, for retries after a dropped socket (the worker itself still alive). */
  private readonly answered = new Map<number, Answer>();
  private readonly running = new Map<number, Promise<Answer>>();
  private restored?: Promise<void>;

  restore(): Promise<void> {
    this.restored ??= chrome.storage.session.get('journal').then((v) => {
      const j = v.journal as Stored | undefined;
      if (j) ((this.epoch = j.epoch), (this.lastStarted = j.lastStarted));
    });
    return this.restored;
  }

  /** A new daemon relay (its request ids start over). */
  async setEpoch(epoch: string): Promise<void> {
    await this.restore();
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.lastStarted = 0;
    this.answered.clear();
    await chrome.storage.session.set({ journal: { epoch, lastStarted: 0 } satisfies Stored });
  }

  /**
   * Runs a request once. The start is written before the work begins (not awaited: the storage
   * write is queued in the browser ahead of the debugger call), so a worker stopped mid-call leaves
   * a trace and the retry is answered RELAY_INTERRUPTED instead of being run again.
   */
  run(rid: number, retry: boolean, work: () => Promise<Answer>): Promise<Answer> {
    const done = this.answered.get(rid);
    if (done) return Promise.resolve(done);
    const running = this.running.get(rid);
    if (running) return running;
    if (retry && rid <= this.lastStarted) {
      return Promise.resolve({ error: { message: `${RELAY_INTERRUPTED}: the Chrome extension restarted while this call ran; it was not run again (it may or may not have taken effect).` } });
    }
    if (rid > this.lastStarted) {
      this.lastStarted = rid;
      void chrome.storage.session.set({ journal: { epoch: this.epoch, lastStarted: rid } satisfies Stored });
    }
    const p = work().then((a) => {
      this.running.delete(rid);
      this.answered.set(rid, a);
      // Keep a few hundred answers: retries only ever ask for the last ones.
      if (this.answered.size > 500) this.answered.delete(this.answered.keys().next().value as number);
      return a;
    });
    this.running.set(rid, p);
    return p;
  }
}
