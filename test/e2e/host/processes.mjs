// Finds every process this e2e run started, however deep (code-server, its extension host, the Chromium
// the extension launched, the Chromium playwright drives): all inherit BA_E2E_MARK=<run id> in their
// environment, so a scan of /proc finds them even after they left our process group.
import { readdirSync, readFileSync } from 'node:fs';

export const MARK_VAR = 'BA_E2E_MARK';

export function markedProcesses(runId) {
  const needle = `${MARK_VAR}=${runId}`;
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let env;
    try {
      env = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // exited, or not ours to read
    }
    if (!env.split('\0').includes(needle)) continue;
    let cmd = '';
    let state = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)\s+/, '').split(' ')[0];
    } catch {
      continue;
    }
    if (state === 'Z') continue; // a zombie is already dead; its parent just has not reaped it
    found.push({ pid, cmd: cmd.slice(0, 200) });
  }
  return found;
}

export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Live (non-zombie) members of process group `pgid`: a zombie only waits for its parent to reap it. */
export function groupMembers(pgid) {
  const members = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const [state, , pgrp] = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\)\s+/s, '').split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return members;
}

export function groupAlive(pid) {
  return groupMembers(pid).length > 0;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** TERM the group, give it `graceMs`, then KILL whatever is left of it. */
export async function stopGroup(pid, graceMs = 5000) {
  if (!groupAlive(pid)) return 'gone';
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
  if (!groupAlive(pid)) return 'terminated';
  killGroup(pid, 'SIGKILL');
  for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
  return 'killed';
}
