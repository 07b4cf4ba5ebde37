import type { ToolCall } from './types';

/** The same call again and again means the model is not getting anywhere. */
export class RepeatGuard {
  private lastKey = '';
  /** Identical calls in a row, this one included. */
  repeats = 0;
  private refused = 0;

  constructor(private readonly maxIdentical: number) {}

  /** `run`; `refuse` (not run again, the model is told); `stop` (the second refusal ends the run). */
  check(call: ToolCall): 'run' | 'refuse' | 'stop' {
    const key = `${call.name} ${JSON.stringify(call.input ?? {})}`;
    this.repeats = key === this.lastKey ? this.repeats + 1 : 1;
    this.lastKey = key;
    if (this.repeats <= this.maxIdentical) return 'run';
    return ++this.refused >= 2 ? 'stop' : 'refuse';
  }
}

/** Failures of one tool on one target: the second means the model's picture of the page is probably stale. */
export class FailedTargets {
  private readonly counts = new Map<string, number>();

  /** Counts a failure; how many there were on this target. */
  fail(tool: string, target: string): number {
    const key = `${tool}|${target}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }

  /** The model was shown a fresh page: counting starts again. */
  forget(tool: string, target: string): void {
    this.counts.delete(`${tool}|${target}`);
  }
}
