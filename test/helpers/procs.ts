import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  cmdline: string;
}

/** Every live (non-zombie) process from /proc: what `ps` would show, read directly. */
export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z' || rest[0] === 'X') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      out.push({ pid: Number(name), ppid: Number(rest[1]), pgid: Number(rest[2]), state: rest[0], cmdline });
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

/** Browser processes using this profile folder, or in this process group. */
export function browserProcesses(opts: { profileDir?: string; pgid?: number }): Proc[] {
  return processes().filter((p) => (opts.pgid !== undefined && p.pgid === opts.pgid) || (!!opts.profileDir && p.cmdline.includes(opts.profileDir)));
}

/** The Chromium a process launched: its direct child with a --user-data-dir switch. */
export function launchedBrowserOf(ownerPid: number): { pid: number; profileDir: string } | undefined {
  const p = processes().find((x) => x.ppid === ownerPid && /--user-data-dir=/.test(x.cmdline));
  if (!p) return undefined;
  const m = /--user-data-dir=(\S+)/.exec(p.cmdline);
  return { pid: p.pid, profileDir: m![1] };
}
