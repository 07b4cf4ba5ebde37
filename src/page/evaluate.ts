/** Around a script the model runs in the page (actions/evaluate.ts). */

/** `this`: a function the script evaluated to; calls it. */
export function callThis(this: () => unknown): unknown {
  return this();
}

/** `this` as JSON text, whatever it is: cycles, DOM nodes, functions, BigInt, Map/Set, errors made JSON-safe. */
export function serialize(this: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (v === undefined) return null;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint') return v.toString() + 'n';
    if (typeof v === 'function') return '[function ' + (v.name || 'anonymous') + ']';
    if (typeof v === 'symbol') return v.toString();
    if (typeof Node !== 'undefined' && v instanceof Node) {
      if (v.nodeType === 1) return '<' + (v as Element).localName + ((v as Element).id ? '#' + (v as Element).id : '') + '>';
      return '[' + v.nodeName + ']';
    }
    if (v instanceof Error) return { error: v.name, message: v.message };
    if (seen.has(v)) return '[Circular]';
    if (depth > 8) return '[…]';
    seen.add(v);
    if (v instanceof Map) return Object.fromEntries([...v].slice(0, 1000).map(([k, x]) => [String(k), walk(x, depth + 1)]));
    if (v instanceof Set) return [...v].slice(0, 1000).map((x) => walk(x, depth + 1));
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v as ArrayLike<unknown>).slice(0, 1000).map((x) => walk(x, depth + 1));
    if (v instanceof Date) return v.toISOString();
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).slice(0, 1000)) { try { out[k] = walk((v as Record<string, unknown>)[k], depth + 1); } catch { out[k] = '[unreadable]'; } }
    return out;
  };
  return JSON.stringify(walk(this, 0));
}
