import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_LAUNCH } from './chromium';

export const DIST = join(__dirname, '..', '..', '..', 'dist');
export const MCP_BIN = join(DIST, 'mcp.js');
export const DAEMON_BIN = join(DIST, 'daemon.js');

/**
 * A daemon folder of the test's own, so tests never meet the user's daemon. `transport` forces one; without it
 * the clients choose as users' do (proxy for an attached browser, direct for a launched one).
 */
export function daemonEnv(idleMs = 1500, transport?: 'direct' | 'proxy'): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'bad-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    BROWSER_AGENT_DAEMON_DIR: dir,
    BROWSER_AGENT_DAEMON_IDLE_MS: String(idleMs),
    BROWSER_AGENT_DAEMON_SCRIPT: DAEMON_BIN,
  };
  if (transport) env.BROWSER_AGENT_DAEMON_TRANSPORT = transport;
  else delete env.BROWSER_AGENT_DAEMON_TRANSPORT;
  return env;
}

export const HEADLESS_ARGS = ['--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`), '--audit-dir', 'off'];

export interface McpProc {
  client: Client;
  process: ChildProcess;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; images: number }>;
  close(): Promise<void>;
}

/** The real MCP server bin over stdio, with the real SDK client. */
export async function spawnMcp(env: Record<string, string>, args: string[] = HEADLESS_ARGS, name = 'test'): Promise<McpProc> {
  if (!existsSync(MCP_BIN) || !existsSync(DAEMON_BIN)) throw new Error('dist/ is missing: run node esbuild.mjs first');
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, ...args], env, stderr: 'ignore' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    process: (transport as unknown as { _process: ChildProcess })._process,
    async call(tool, a = {}) {
      const r: any = await client.callTool({ name: tool, arguments: a }, undefined, { timeout: 90_000 });
      const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
      return { text, isError: !!r.isError, images: r.content.filter((c: any) => c.type === 'image').length };
    },
    close: () => client.close(),
  };
}

export function runDaemonCli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DAEMON_BIN, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

export async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** TCP sockets the processes hold, from /proc (what `ss -tnp` shows): state (0A listening, 01 established) and ports. */
function tcpSocketsOf(pids: number[]): { state: string; localPort: number; remotePort: number }[] {
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
  const sockets: { state: string; localPort: number; remotePort: number }[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9])) sockets.push({ state: f[3], localPort: parseInt(f[1].split(':')[1], 16), remotePort: parseInt(f[2].split(':')[1], 16) });
    }
  }
  return sockets;
}

/** TCP ports a process listens on. */
export function listeningTcpPorts(pid: number): number[] {
  return tcpSocketsOf([pid]).filter((s) => s.state === '0A').map((s) => s.localPort);
}

/** Established TCP connections from these processes to `port` on this machine. */
export function connectionsTo(port: number, pids: number[]): number {
  return tcpSocketsOf(pids).filter((s) => s.state === '01' && s.remotePort === port).length;
}
