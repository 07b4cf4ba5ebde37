import { BrowserAgentError } from '../base/errors';
import { originMatches } from '../base/originGlob';
import { SECRET_PLACEHOLDER } from './secrets';

/**
 * Where a `{{secret:NAME}}` placeholder may stand: only in a value typed into a field
 * (`browser_type` text, `browser_fill_form` field values). Anywhere else — a URL, a new-tab URL,
 * a wait text, an option name, a key name — it would send the secret somewhere no person chose,
 * so the call is refused before anything runs.
 */
export function typedSecretValues(toolName: string, input: unknown): { typed: string[]; misplaced: string[] } {
  const typed: string[] = [];
  const misplaced: string[] = [];
  // A script sends nothing itself: a placeholder in it is passed on to the call that types it, and checked there.
  if (PASSES_SECRETS_ON.has(toolName)) return { typed, misplaced };
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (!new RegExp(SECRET_PLACEHOLDER.source).test(v)) return;
      const ok = (toolName === 'browser_type' && path === 'text') || (toolName === 'browser_fill_form' && /^fields\.\d+\.value$/.test(path));
      (ok ? typed : misplaced).push(path);
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, path ? `${path}.${i}` : String(i)));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, path ? `${path}.${k}` : k);
  };
  visit(input, '');
  return { typed, misplaced };
}

/** Tools whose input hands placeholders on to tool calls of their own (ToolDefinition.composite). */
const PASSES_SECRETS_ON = new Set(['browser_run_script']);

/** The secret names in an input. */
export function secretNames(input: unknown): string[] {
  return [...new Set([...JSON.stringify(input ?? null).matchAll(new RegExp(SECRET_PLACEHOLDER.source, 'g'))].map((m) => m[1]))];
}

/** Refused: a placeholder outside a typed value. The message names the argument, never a value. */
export function misplacedSecretError(toolName: string, paths: string[]): BrowserAgentError {
  return new BrowserAgentError(
    'INVALID_INPUT',
    `A {{secret:NAME}} placeholder in ${toolName} "${paths.join('", "')}" was refused and nothing was sent: secrets are only typed into fields (browser_type text, browser_fill_form values).`,
    'Type the secret into the field with browser_type instead; never put it into URLs, keys, options or waits.',
  );
}

/** `NAME@glob` entries → the origin globs each secret is bound to. */
export function secretBindings(entries: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of entries) {
    const at = e.indexOf('@');
    if (at <= 0) continue;
    const name = e.slice(0, at).trim();
    const glob = e.slice(at + 1).trim();
    if (name && glob) out.set(name, [...(out.get(name) ?? []), glob]);
  }
  return out;
}

export interface SecretOriginCheck {
  /** Names bound to origins that do not include one of the URLs (page, frame). */
  wrongOrigin: { name: string; url: string; origins: string[] }[];
  /** Names bound to no origin (they ask first). */
  unbound: string[];
}

/** Checks each secret used against its bound origins, for every URL the value would go to (page, frame). */
export function checkSecretOrigins(names: string[], urls: (string | undefined)[], entries: string[]): SecretOriginCheck {
  const bindings = secretBindings(entries);
  const res: SecretOriginCheck = { wrongOrigin: [], unbound: [] };
  for (const name of names) {
    const origins = bindings.get(name);
    if (!origins) {
      res.unbound.push(name);
      continue;
    }
    for (const url of urls) {
      if (url === undefined) continue;
      if (!origins.some((g) => originMatches(g, url))) {
        res.wrongOrigin.push({ name, url, origins });
        break;
      }
    }
  }
  return res;
}
