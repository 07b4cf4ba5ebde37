import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Socket inodes the processes hold open. */
function socketInodes(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // exited
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return inodes;
}

/** Established TCP connections from these processes to `port` on this machine, from /proc (what `ss -tnp` shows). */
export function connectionsTo(port: number, pids: number[]): number {
  const inodes = socketInodes(pids);
  let n = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '01' && parseInt(f[2].split(':')[1], 16) === port && inodes.has(f[9])) n++;
    }
  }
  return n;
}
