import type { ActionPreview } from '../contract/types';
import { redactText } from '../safety/redactor';
import { REDACTED, SECRET_PLACEHOLDER } from './types';

/**
 * The one place that decides what never reaches the audit log. In every front door's tool pipeline
 * (safety/pipeline.ts) the SecretVault also scrubs events before they reach us, and `knownSecrets`
 * comes from the vault; this stays as the second, local line of defence.
 */

/** Only `{{secret:NAME}}` placeholders (and spaces): names, not values — kept, and replayable. */
function onlyPlaceholders(v: string): boolean {
  return v.replace(SECRET_PLACEHOLDER, '').trim() === '' && v.trim() !== '';
}

/** Input keys that hold typed or filled text. */
const TEXT_KEYS = new Set(['text', 'value', 'values']);
/** Input keys whose values are secrets whatever the target. */
const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|credential|otp|pin$/i;

export interface Redaction {
  value: unknown;
  /** The plain secret strings that were taken out, to scrub from results, URLs and titles too. */
  secrets: string[];
}

/** Replaces password values, text typed into secret fields and secret-named keys. */
export function redactInput(input: unknown, preview?: ActionPreview): Redaction {
  const secrets: string[] = [];
  const walk = (v: unknown, key: string | undefined, secretTarget: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key, secretTarget));
    if (v && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      // A fill-form entry may carry its own flag ({ ref, value, secret: true } / { type: 'password' }).
      const own = secretTarget || obj.secret === true || obj.type === 'password';
      return Object.fromEntries(Object.entries(obj).map(([k, x]) => [k, walk(x, k, own)]));
    }
    if (typeof v === 'string' && key && ((secretTarget && TEXT_KEYS.has(key)) || SECRET_KEY.test(key))) {
      if (v === REDACTED || onlyPlaceholders(v)) return v;
      if (v.length) secrets.push(v);
      return REDACTED;
    }
    return v;
  };
  const value = walk(input, undefined, !!preview?.secret);
  return { value, secrets };
}

/** Replaces every occurrence of the known secret values in a string (URLs, titles, results). */
export function scrub(text: string, secrets: Iterable<string>): string;
export function scrub(text: string | undefined, secrets: Iterable<string>): string | undefined;
export function scrub(text: string | undefined, secrets: Iterable<string>): string | undefined {
  if (!text) return text;
  // Short values (a 1-char PIN digit) would wipe unrelated text; they are redacted in input only.
  return redactText(text, [...secrets].filter((s) => s.length >= 4).map((s): [string, string] => [s, REDACTED]));
}

/** Deep version of scrub for whole events. */
export function scrubDeep<T>(value: T, secrets: Iterable<string>): T {
  const list = [...secrets];
  if (!list.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
