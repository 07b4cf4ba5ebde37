// Helpers shared by the in-host suites: the installed Browser Agent extension and what it declares.
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { BrowserAgentApi } from '../../../src/vscode/extension';

export const EXTENSION_ID = 'browser-agent.browser-agent';

/** Marks the suite's own output among everything the workbench logs (the runner prints only these lines). */
export const LOG_PREFIX = '[in-host] ';

export function log(message: string): void {
  console.log(LOG_PREFIX + message);
}

export interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { title: string; properties: Record<string, { default?: unknown; type?: string | string[] }> }[];
    languageModelTools?: { name: string; toolReferenceName?: string }[];
  };
}

export function browserAgent(): vscode.Extension<BrowserAgentApi> {
  const ext = vscode.extensions.getExtension<BrowserAgentApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this extension host`);
  return ext;
}

export function manifest(): Manifest {
  return browserAgent().packageJSON as Manifest;
}

/** The extension's exported API, after it activated by itself (it must not need us to activate it). */
export async function api(): Promise<BrowserAgentApi> {
  const ext = browserAgent();
  await waitFor(() => ext.isActive, 30_000, `${EXTENSION_ID} to activate on startup`);
  return ext.exports;
}

export async function waitFor(pred: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Live (non-zombie) processes whose process group is `pgid`, read from /proc. A zombie is already dead. */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may contain spaces, so split after ')'.
      const [state, , pgrp] = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\)\s+/s, '').split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return members;
}

/** True while a process (group leader) with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
