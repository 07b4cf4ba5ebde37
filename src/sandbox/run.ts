import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { freshQuickJS } from './wasm';

/**
 * A JavaScript sandbox: QuickJS compiled to WebAssembly, one fresh instance per run. The code inside sees only
 * ECMAScript itself and the host functions it is given: no require, process, fetch, file system, timers or DOM.
 * Host functions are async (a promise inside, settled when the host's work ends) or sync; values cross as JSON.
 */

export interface SandboxLimits {
  /** Wall time of the whole run, host calls included. */
  timeMs: number;
  /** Heap of the QuickJS runtime. */
  memoryBytes: number;
  /** Stack of the QuickJS runtime (deep recursion fails inside with a RangeError). */
  stackBytes: number;
  /**
   * Longest stretch the code may compute without awaiting a host call. While QuickJS computes, this process does
   * nothing else (no cancellation, no other call is served), so a busy loop is stopped after this long.
   */
  sliceMs: number;
  /** Characters of the returned value's JSON. */
  outputChars: number;
}

export interface SandboxHost {
  /** name → work done by the host; inside, `__host.async(name, ...args)` returns a promise of its JSON result. */
  async: Record<string, (...args: unknown[]) => Promise<unknown>>;
  /** name → a quick host function (a log line); inside, `__host.sync(name, ...args)`. */
  sync: Record<string, (...args: unknown[]) => unknown>;
}

export interface SandboxRun {
  /** Trusted code run first (sets up the globals the body uses; may delete `__host` from sight). */
  prelude: string;
  /** The untrusted body of an async function; its return value is the result. */
  body: string;
  host: SandboxHost;
  limits: SandboxLimits;
  /** Aborting stops the run (host calls in flight get the signal too, through the host's own wiring). */
  signal?: AbortSignal;
  /** Receives the run's clock: time between `pause()` and its `resume()` (a person answering) does not count. */
  clock?(c: { pause(): () => void }): void;
}

export type LimitKind = 'time' | 'compute' | 'memory' | 'output' | 'calls';

export type SandboxOutcome =
  | { ok: true; json: string }
  | { ok: false; kind: 'error'; message: string; name?: string; line?: number; code?: string }
  | { ok: false; kind: 'limit'; limit: LimitKind; message: string }
  | { ok: false; kind: 'cancelled'; message: string };

/** The file name error stacks give the body; its lines count from the body's first line. */
const BODY_FILE = 'script.js';

/** A host error that ends the whole run (a limit), not just the call that raised it. */
export class SandboxStop extends Error {
  constructor(readonly outcome: Extract<SandboxOutcome, { kind: 'limit' | 'cancelled' }>) {
    super(outcome.message);
  }
}

export async function runInSandbox(o: SandboxRun): Promise<SandboxOutcome> {
  const qjs = await freshQuickJS(o.limits.memoryBytes);
  const rt = qjs.newRuntime();
  rt.setMemoryLimit(o.limits.memoryBytes);
  rt.setMaxStackSize(o.limits.stackBytes);
  const vm = rt.newContext();

  let finish!: (out: SandboxOutcome) => void;
  const outcome = new Promise<SandboxOutcome>((resolve) => (finish = resolve));
  let ended = false;
  const end = (out: SandboxOutcome) => {
    if (ended) return;
    ended = true;
    finish(out);
  };

  // While the engine runs, Node's event loop waits: the handler is its only chance to stop (QuickJS polls it).
  let sliceStart = Date.now();
  rt.setInterruptHandler(() => {
    if (ended) return true;
    if (Date.now() - sliceStart > o.limits.sliceMs) {
      end({ ok: false, kind: 'limit', limit: 'compute', message: `the script computed for more than ${o.limits.sliceMs} ms without waiting on a tool call (an endless loop?); a script drives tools, heavy computation does not belong in it` });
      return true;
    }
    return Date.now() > deadline;
  });
  let deadline = Date.now() + o.limits.timeMs;
  const overtime = () => end({ ok: false, kind: 'limit', limit: 'time', message: `the script ran longer than its time limit of ${Math.round(o.limits.timeMs / 1000)} s` });
  let timer: NodeJS.Timeout | undefined = setTimeout(overtime, o.limits.timeMs);
  // Paused while any pause is open; on the last resume the deadline moves by the time paused.
  let paused = 0;
  let pausedAt = 0;
  o.clock?.({
    pause: () => {
      if (paused++ === 0) {
        pausedAt = Date.now();
        clearTimeout(timer);
        timer = undefined;
      }
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        if (--paused === 0 && !ended) {
          deadline += Date.now() - pausedAt;
          timer = setTimeout(overtime, Math.max(0, deadline - Date.now()));
        }
      };
    },
  });
  const onAbort = () => end({ ok: false, kind: 'cancelled', message: 'the script was stopped (cancelled)' });
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  const enter = <T>(f: () => T): T => {
    sliceStart = Date.now();
    return f();
  };
  // Host calls not yet settled: with none and no job left, a script still waiting can never go on.
  const calls = { pending: 0 };
  const pump = () => {
    if (ended) return;
    const r = enter(() => rt.executePendingJobs());
    if (r.error) r.error.dispose();
    if (!ended && calls.pending === 0 && !rt.hasPendingJob()) {
      end({ ok: false, kind: 'error', name: 'Error', message: 'the script waits on a promise that nothing will settle (no tool call or sleep is running), so it can never finish' });
    }
  };

  try {
    enter(() => installHost(vm, o.host, () => ended, pump, end, calls));
    enter(() => installDone(vm, o.limits.outputChars, end));
    const prelude = enter(() => vm.evalCode(o.prelude, 'prelude.js'));
    if (prelude.error) {
      const e = vm.dump(prelude.error);
      prelude.error.dispose();
      throw new Error(`the sandbox prelude failed: ${JSON.stringify(e)}`);
    }
    prelude.value.dispose();
    // The body on its own line 1; `__done` serialises inside, so the value never exists as a host object first.
    const code = `(async () => {\n${o.body}\n})().then((v) => __done.ok(v), (e) => __done.fail(e));`;
    const started = enter(() => vm.evalCode(code, BODY_FILE));
    if (started.error) {
      const e = vm.dump(started.error) as { name?: string; message?: string; stack?: string } | string;
      started.error.dispose();
      if (!ended) end(errorOutcome(e));
    } else {
      started.value.dispose();
      pump();
    }
    return await outcome;
  } catch (e) {
    // The engine itself failed (the host's own stack ran out under deep recursion): this instance is dropped.
    if (e instanceof RangeError) return { ok: false, kind: 'limit', limit: 'memory', message: `the script's recursion went too deep (${e.message})` };
    throw e;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    ended = true;
    // The instance is dropped, not disposed: freeing a runtime with promises still pending aborts the engine, and
    // a fresh instance per run means nothing of this one is reused.
  }
}

/** Host functions: `__host.async(name, ...args)` and `__host.sync(name, ...args)`, arguments and results as JSON. */
function installHost(vm: QuickJSContext, host: SandboxHost, isEnded: () => boolean, pump: () => void, end: (o: SandboxOutcome) => void, calls: { pending: number }): void {
  const obj = vm.newObject();
  const asyncFn = vm.newFunction('async', (nameH, argsH) => {
    const name = vm.getString(nameH);
    const args = JSON.parse(vm.getString(argsH)) as unknown[];
    const deferred = vm.newPromise();
    const fn = host.async[name];
    calls.pending++;
    void Promise.resolve()
      .then(() => (fn ? fn(...args) : Promise.reject(new Error(`no host function ${name}`))))
      .then(
        (v) => {
          if (isEnded()) return;
          const h = vm.newString(JSON.stringify(v ?? null));
          deferred.resolve(h);
          h.dispose();
        },
        (e: unknown) => {
          if (e instanceof SandboxStop) return end(e.outcome);
          if (isEnded()) return;
          const h = errorHandle(vm, e);
          deferred.reject(h);
          h.dispose();
        },
      )
      .then(() => {
        calls.pending--;
        pump();
      });
    return deferred.handle;
  });
  const syncFn = vm.newFunction('sync', (nameH, argsH) => {
    const name = vm.getString(nameH);
    const fn = host.sync[name];
    if (!fn) return vm.newError(`no host function ${name}`);
    return vm.newString(JSON.stringify(fn(...(JSON.parse(vm.getString(argsH)) as unknown[])) ?? null));
  });
  vm.setProp(obj, 'asyncRaw', asyncFn);
  vm.setProp(obj, 'syncRaw', syncFn);
  vm.setProp(vm.global, '__hostRaw', obj);
  asyncFn.dispose();
  syncFn.dispose();
  obj.dispose();
  // JSON on both sides of the boundary: the host never holds a sandbox object, the sandbox never a host one.
  const shim = vm.evalCode(
    `(() => { const raw = __hostRaw; delete globalThis.__hostRaw; globalThis.__host = { async: (n, ...a) => raw.asyncRaw(n, JSON.stringify(a)).then(JSON.parse), sync: (n, ...a) => JSON.parse(raw.syncRaw(n, JSON.stringify(a))) }; })();`,
    'host.js',
  );
  if (shim.error) shim.error.dispose();
  else shim.value.dispose();
}

/** A host error as the sandbox sees it: an Error with the host's message and, when it has one, its code. */
function errorHandle(vm: QuickJSContext, e: unknown): QuickJSHandle {
  const err = e instanceof Error ? e : new Error(String(e));
  const h = vm.newError({ name: err.name === 'Error' ? 'Error' : err.name, message: err.message });
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    const c = vm.newString(code);
    vm.setProp(h, 'code', c);
    c.dispose();
  }
  return h;
}

/** `__done.ok(value)` / `__done.fail(error)`: the body's promise settles into the run's outcome. */
function installDone(vm: QuickJSContext, outputChars: number, end: (o: SandboxOutcome) => void): void {
  const report = vm.newFunction('report', (kindH, payloadH) => {
    const kind = vm.getString(kindH);
    const payload = vm.getString(payloadH);
    if (kind === 'ok') {
      if (payload.length > outputChars) end({ ok: false, kind: 'limit', limit: 'output', message: `the script returned ${payload.length.toLocaleString('en-US')} characters of JSON, more than its output limit of ${outputChars.toLocaleString('en-US')}; return less (a count, the first rows) or raise maxOutputChars` });
      else end({ ok: true, json: payload });
    } else {
      end(errorOutcome(JSON.parse(payload) as { name?: string; message?: string; stack?: string; code?: string }));
    }
  });
  vm.setProp(vm.global, '__report', report);
  report.dispose();
  const r = vm.evalCode(
    `globalThis.__done = (() => { const report = __report; delete globalThis.__report;
      const asJson = (v) => { const s = JSON.stringify(v === undefined ? null : v); return s === undefined ? 'null' : s; };
      return {
        ok: (v) => { let s; try { s = asJson(v); } catch (e) { report('fail', JSON.stringify({ name: 'TypeError', message: 'the return value is not JSON: ' + (e && e.message) })); return; } report('ok', s); },
        fail: (e) => report('fail', JSON.stringify(e instanceof Error || (e && typeof e === 'object') ? { name: String(e.name || 'Error'), message: String(e.message ?? e), stack: String(e.stack || ''), code: typeof e.code === 'string' ? e.code : undefined } : { name: 'Error', message: 'threw ' + String(e) })),
      };
    })();`,
    'done.js',
  );
  if (r.error) r.error.dispose();
  else r.value.dispose();
}

function errorOutcome(e: { name?: string; message?: string; stack?: string; code?: string } | string): SandboxOutcome {
  if (typeof e === 'string') return { ok: false, kind: 'error', message: e };
  const message = e.message ?? String(e);
  if (/out of memory/i.test(message)) return { ok: false, kind: 'limit', limit: 'memory', message: 'the script ran out of memory (its heap limit)' };
  if (/interrupted/i.test(message)) return { ok: false, kind: 'limit', limit: 'time', message: 'the script was interrupted' };
  const line = lineOf(e.stack ?? '');
  return { ok: false, kind: 'error', name: e.name, message, line, code: e.code };
}

/** The body's line in an error stack (`script.js:5`); the body starts on the wrapper's line 2. */
export function lineOf(stack: string): number | undefined {
  const m = new RegExp(`${BODY_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack);
  return m ? Math.max(1, Number(m[1]) - 1) : undefined;
}
