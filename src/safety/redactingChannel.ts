/**
 * The VS Code output channel ("Browser Agent") behind a redactor: every text written to it — tool
 * results, session log lines (a crashed tab's URL, a launch error), errors — passes the secret
 * vault first, whoever writes. Pure (no `vscode` import) so it is tested without a VS Code host.
 */

/** Methods of a (log) output channel that take text to show. */
const WRITES = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

function redactArg(arg: unknown, redact: (text: string) => string): unknown {
  if (typeof arg === 'string') return redact(arg);
  if (arg instanceof Error) {
    const out = new Error(redact(arg.message));
    out.name = arg.name;
    out.stack = arg.stack && redact(arg.stack);
    return out;
  }
  return arg;
}

export function redactingChannel<T extends object>(channel: T, redact: (text: string) => string): T {
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && WRITES.has(prop)) return (...args: unknown[]) => value.apply(target, args.map((a) => redactArg(a, redact)));
      return value.bind(target);
    },
  });
}
