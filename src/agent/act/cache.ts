import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Placement } from './fingerprint';
import { ignore } from '../../base/ignore';

/** The concrete call an instruction resolved to, without the ref (refs do not outlive a page). */
export const CachedAction = z.object({
  tool: z.string(),
  /** The tool's arguments other than the ref (the text to type, the option to pick, the key). */
  args: z.record(z.string(), z.unknown()),
});

export const CacheEntry = z.object({
  instruction: z.string(),
  site: z.string(),
  /** Structural fingerprint of the part of the page the action targets. */
  placement: z.object({ region: z.string(), sibling: z.number(), siblings: z.number() }),
  target: z.object({ role: z.string(), name: z.string() }),
  action: CachedAction,
  hits: z.number().default(0),
  createdAt: z.string(),
  usedAt: z.string(),
});
export type CacheEntry = z.infer<typeof CacheEntry>;

const CacheFile = z.object({ version: z.literal(1), entries: z.array(CacheEntry) });

/** Instructions differ in case and spacing only: the same instruction. */
export function normalizeInstruction(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Most entries kept per instruction and site (one per page variant), and overall. */
const PER_KEY = 4;
const MAX_ENTRIES = 5000;

/**
 * Resolved actions by instruction + site + placement, in one JSON file (per workspace): readable,
 * and clearable. A file that does not parse is set aside (`.bad`) and the cache starts empty.
 */
export class ActionCache {
  private entries: CacheEntry[] | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  static key(instruction: string, site: string): string {
    return createHash('sha256').update(`${normalizeInstruction(instruction)}\n${site}`).digest('hex').slice(0, 24);
  }

  private async load(): Promise<CacheEntry[]> {
    if (this.entries) return this.entries;
    try {
      const parsed = CacheFile.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
      if (parsed.success) this.entries = parsed.data.entries;
      else {
        await fs.rename(this.file, `${this.file}.bad`).catch((e) => ignore(e, 'the bad cache file stays; the next save overwrites it'));
        this.entries = [];
      }
    } catch {
      this.entries = [];
    }
    return this.entries;
  }

  /** Entries for an instruction on a site, the most used first. */
  async candidates(instruction: string, site: string): Promise<CacheEntry[]> {
    const n = normalizeInstruction(instruction);
    return (await this.load()).filter((e) => e.site === site && normalizeInstruction(e.instruction) === n).sort((a, b) => b.hits - a.hits);
  }

  async hit(e: CacheEntry): Promise<void> {
    e.hits++;
    e.usedAt = new Date().toISOString();
    await this.save();
  }

  /** Records a fresh resolution; replaces an entry with the same placement and target. */
  async put(e: Omit<CacheEntry, 'hits' | 'createdAt' | 'usedAt'>): Promise<void> {
    const all = await this.load();
    const n = normalizeInstruction(e.instruction);
    const now = new Date().toISOString();
    const rest = all.filter((x) => !(x.site === e.site && normalizeInstruction(x.instruction) === n && x.placement.region === e.placement.region));
    const siblings = rest.filter((x) => x.site === e.site && normalizeInstruction(x.instruction) === n);
    // Too many variants of one instruction: drop the least used.
    const drop = new Set(siblings.sort((a, b) => a.hits - b.hits).slice(0, Math.max(0, siblings.length - PER_KEY + 1)));
    this.entries = [...rest.filter((x) => !drop.has(x)), { ...e, hits: 0, createdAt: now, usedAt: now }].slice(-MAX_ENTRIES);
    await this.save();
  }

  /** Forgets the entries of an instruction on a site whose target is gone. */
  async forget(e: CacheEntry): Promise<void> {
    this.entries = (await this.load()).filter((x) => x !== e);
    await this.save();
  }

  async list(): Promise<readonly CacheEntry[]> {
    return this.load();
  }

  async clear(): Promise<number> {
    const n = (await this.load()).length;
    this.entries = [];
    await this.save();
    return n;
  }

  private save(): Promise<void> {
    const data = `${JSON.stringify({ version: 1, entries: this.entries ?? [] }, null, 1)}\n`;
    // Writes in order; a temp file and a rename so a crash never leaves half a file.
    this.writing = this.writing.catch((e) => ignore(e, 'an earlier failed write was reported to its caller; this one goes on')).then(async () => {
      await fs.mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, data, { mode: 0o600 });
      await fs.rename(tmp, this.file);
    });
    return this.writing;
  }
}

export type { Placement };
