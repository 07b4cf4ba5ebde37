import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_LAUNCH } from './chromium';

/** The shipped MCP server bin (tests run from out/test/…). */
export const MCP_BIN = join(__dirname, '..', '..', '..', 'dist', 'mcp.js');

export const HEADLESS_ARGS = ['--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`)];

export interface McpProcess {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<{ text: string; isError: boolean; images: number }>;
  close(): Promise<void>;
}

/** The real server over stdio through the SDK's client, as any MCP host runs it. */
export async function startMcp(args: string[], stderr: 'ignore' | 'pipe' = 'ignore', opts: { daemonEnv?: Record<string, string> } = {}): Promise<McpProcess> {
  if (!existsSync(MCP_BIN)) throw new Error(`${MCP_BIN} is missing: run node esbuild.mjs first`);
  // These tests are about a server and the browser it drives itself, not the shared session daemon — unless a
  // test gives a daemon environment of its own (daemonEnv in helpers/daemon.ts): then the server's default.
  const own = opts.daemonEnv || args.includes('--no-daemon') ? args : [...args, '--no-daemon'];
  const withAudit = own.includes('--audit-dir') ? own : [...own, '--audit-dir', 'off'];
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, ...withAudit], stderr, env: opts.daemonEnv });
  const client = new Client({ name: 'browser-agent-robust-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    pid: transport.pid!,
    async call(name, a = {}, timeoutMs = 60_000) {
      const r: any = await client.callTool({ name, arguments: a }, undefined, { timeout: timeoutMs });
      const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
      return { text, isError: !!r.isError, images: r.content.filter((c: any) => c.type === 'image').length };
    },
    close: () => client.close().catch(() => {}),
  };
}
