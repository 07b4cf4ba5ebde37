import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import { BrowserAgentError } from '../base/errors';
import type { ContentPart, ToolResult } from '../contract/types';
import { MIN_REDACT_LENGTH, redactText } from './redactor';

/** `{{secret:NAME}}` in any string argument is replaced by the secret's value right before the handler runs. */
export const SECRET_PLACEHOLDER = /\{\{\s*secret:([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
export const REDACTED = '[redacted]';

/** Where secret values come from: VS Code SecretStorage, a `.env`-style file, or a plain map (MCP, tests). */
export interface SecretSource {
  names(): Promise<string[]>;
  get(name: string): Promise<string | undefined>;
}

export function mapSecretSource(values: Record<string, string | undefined>): SecretSource {
  return {
    names: async () => Object.keys(values).filter((k) => values[k] !== undefined),
    get: async (name) => values[name],
  };
}

/** Reads a `.env`-style file (KEY=value, quotes, comments, `export`) at each lookup so edits apply at once. */
export function envFileSecretSource(path: string): SecretSource {
  const load = async (): Promise<Record<string, string | undefined>> => {
    try {
      return parseEnv((await readFile(path, 'utf8')).replace(/^\s*export\s+/gm, ''));
    } catch {
      return {};
    }
  };
  return {
    names: async () => Object.keys(await load()),
    get: async (name) => (await load())[name],
  };
}

/** First source that knows the name wins. */
export function chainSecretSources(...sources: SecretSource[]): SecretSource {
  return {
    names: async () => [...new Set((await Promise.all(sources.map((s) => s.names()))).flat())],
    async get(name) {
      for (const s of sources) {
        const v = await s.get(name);
        if (v !== undefined) return v;
      }
      return undefined;
    },
  };
}

/**
 * Knows every secret value seen in this session (placeholder values, text typed into password
 * fields) and scrubs them from anything shown to a model, a log or a person.
 */
export class SecretVault {
  private readonly values = new Map<string, string>();

  constructor(private readonly source: SecretSource = mapSecretSource({})) {}

  /** Remember a value that must never be shown (e.g. typed into a password field). */
  remember(value: string, label = REDACTED): void {
    if (value && value.length >= MIN_REDACT_LENGTH) this.values.set(value, label);
  }

  /** Every value known so far, for layers that scrub text the tools never saw (the audit's page URLs). */
  known(): string[] {
    return [...this.values.keys()];
  }

  async names(): Promise<string[]> {
    return this.source.names();
  }

  /** Replaces placeholders in one string. Unknown names are an INVALID_INPUT error listing the known ones. */
  async resolve(text: string): Promise<string> {
    const names = [...text.matchAll(SECRET_PLACEHOLDER)].map((m) => m[1]);
    if (!names.length) return text;
    const values = new Map<string, string>();
    for (const name of new Set(names)) {
      const value = await this.source.get(name);
      if (value === undefined) {
        const known = await this.source.names();
        throw new BrowserAgentError('INVALID_INPUT', `Unknown secret "${name}".`, known.length ? `Known secrets: ${known.join(', ')}. Use {{secret:NAME}}.` : 'No secrets are configured: the user adds them with the command "Browser Agent: Set Secret" or browserAgent.secrets.envFile.');
      }
      values.set(name, value);
      this.remember(value, `{{secret:${name}}}`);
    }
    return text.replace(SECRET_PLACEHOLDER, (_, name: string) => values.get(name)!);
  }

  /** A copy of a tool input with placeholders resolved in every string, at any depth. */
  async resolveDeep<T>(input: T): Promise<T> {
    if (typeof input === 'string') return (await this.resolve(input)) as T;
    if (Array.isArray(input)) return (await Promise.all(input.map((v) => this.resolveDeep(v)))) as T;
    if (input && typeof input === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input)) out[k] = await this.resolveDeep(v);
      return out as T;
    }
    return input;
  }

  /** Text with every known secret value — raw, URL-encoded, HTML- or JSON-escaped — replaced by its placeholder (or [redacted]). */
  redact(text: string): string {
    if (!this.values.size || !text) return text;
    return redactText(text, this.values);
  }

  /** An error with its message and hint redacted (errors echo arguments, URLs and page text). */
  redactError(e: unknown): unknown {
    if (!this.values.size) return e;
    if (e instanceof BrowserAgentError) {
      const out = new BrowserAgentError(e.code, this.redact(e.message), e.hint && this.redact(e.hint));
      out.stack = this.redact(e.stack ?? '');
      return out;
    }
    if (e instanceof Error) {
      const out = new Error(this.redact(e.message));
      out.stack = this.redact(e.stack ?? '');
      return out;
    }
    return typeof e === 'string' ? this.redact(e) : e;
  }

  redactDeep<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.redactDeep(v)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.redactDeep(v);
      return out as T;
    }
    return value;
  }

  redactResult(result: ToolResult): ToolResult {
    if (!this.values.size) return result;
    const content: ContentPart[] = result.content.map((p) => (p.type === 'text' ? { ...p, text: this.redact(p.text) } : p));
    return { ...result, content, meta: result.meta ? this.redactDeep(result.meta) : undefined };
  }
}
