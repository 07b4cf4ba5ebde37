import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { groupAlive, sleep, type LaunchedBrowser } from '../session/launcher';
import { ignore } from '../base/ignore';

/** A browser this daemon (or a killed predecessor it adopted) launched. */
export type Launched = Pick<LaunchedBrowser, 'pid' | 'wsEndpoint' | 'userDataDir' | 'temporaryProfile' | 'kill'> & { headless: boolean; key?: string };

/** What browsers.json keeps of each launched browser, so a successor can adopt or close it. */
export type LaunchRecord = Pick<Launched, 'pid' | 'wsEndpoint' | 'userDataDir' | 'temporaryProfile' | 'headless' | 'key'>;

/** The browser of a record still runs with the record's profile (its pid was not reused by another process). */
export function ownsProfile(r: LaunchRecord): boolean {
  try {
    return readFileSync(`/proc/${r.pid}/cmdline`, 'utf8').includes(`--user-data-dir=${r.userDataDir}`);
  } catch {
    return false;
  }
}

/** Kills a browser launched by a daemon that no longer runs (not our child: no exit event). */
export function adopted(r: LaunchRecord): Launched {
  return {
    ...r,
    async kill() {
      try {
        process.kill(-r.pid, 'SIGTERM');
      } catch (e) {
        ignore(e, 'the process group is gone already');
      }
      for (let i = 0; i < 60 && groupAlive(r.pid); i++) await sleep(50);
      try {
        process.kill(-r.pid, 'SIGKILL');
      } catch (e) {
        ignore(e, 'the process group is gone already');
      }
      if (r.temporaryProfile) rmSync(r.userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/** browsers.json: the browsers this daemon launched and still runs, rewritten at each change. */
export class LaunchRecords {
  private list: LaunchRecord[] = [];

  constructor(private readonly file: string) {}

  /** What a daemon before us left (none when the file is missing or unreadable). */
  leftovers(): LaunchRecord[] | undefined {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return undefined;
    }
  }

  record(b: Launched, live: boolean): void {
    this.list = this.list.filter((x) => x.pid !== b.pid);
    if (live) this.list.push({ pid: b.pid, wsEndpoint: b.wsEndpoint, userDataDir: b.userDataDir, temporaryProfile: b.temporaryProfile, headless: b.headless, key: b.key });
    try {
      writeFileSync(this.file, JSON.stringify(this.list), { mode: 0o600 });
    } catch (e) {
      ignore(e, 'browsers.json is best effort: without it a restart finds no leftovers');
    }
  }

  remove(): void {
    rmSync(this.file, { force: true });
  }
}
