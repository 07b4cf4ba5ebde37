// Requests of this worker's life, by id: a request sent again after a dropped socket (the worker
// itself still running) is answered once, from its answer or the call still running. Which requests
// the daemon sends again at all is its decision: only calls that just read (src/daemon/relayServer.ts);
// any other call left unanswered by a stopped worker fails there instead of running twice.

export type Answer = { result?: unknown; error?: { code?: number; message: string } };

export class Journal {
  private epoch = '';
  private readonly answered = new Map<number, Answer>();
  private readonly running = new Map<number, Promise<Answer>>();

  /** A new relay endpoint (its request ids start over). */
  setEpoch(epoch: string): void {
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.answered.clear();
    this.running.clear();
  }

  run(rid: number, work: () => Promise<Answer>): Promise<Answer> {
    const done = this.answered.get(rid);
    if (done) return Promise.resolve(done);
    const running = this.running.get(rid);
    if (running) return running;
    const p = work().then((a) => {
      this.running.delete(rid);
      this.answered.set(rid, a);
      // A few hundred answers: a retry only ever asks for the last ones.
      if (this.answered.size > 500) this.answered.delete(this.answered.keys().next().value as number);
      return a;
    });
    this.running.set(rid, p);
    return p;
  }
}
