import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { requestIdOf } from '../../src/mcp/stdioTransport';
import { HEADLESS_ARGS, MCP_BIN, startMcp } from '../helpers/mcpProcess';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('mcp: input limits on stdin', function () {
  this.timeout(60_000);

  it('answers a 20 MB call with an error naming the limit, and keeps serving', async () => {
    const mcp = await startMcp(HEADLESS_ARGS);
    try {
      const huge = 'x'.repeat(20 * 1024 * 1024);
      const t0 = Date.now();
      await assert.rejects(
        mcp.client.callTool({ name: 'browser_type', arguments: { ref: '1', text: huge } }, undefined, { timeout: 30_000 }),
        (e: unknown) => e instanceof McpError && e.code === -32600 && /too large: 2097\d{4} bytes.*at most 4194304/.test(e.message),
      );
      assert.ok(Date.now() - t0 < 30_000);
      assert.ok(alive(mcp.pid), 'the server process is still running');
      const r = await mcp.call('browser_navigate', { url: 'data:text/html,<title>x</title>' });
      assert.equal(r.isError, true, 'the next call is answered (here: data: URLs are refused)');
      assert.match(r.text, /BLOCKED_BY_POLICY/);
      const tools = await mcp.client.listTools();
      assert.equal(tools.tools.length > 10, true, 'and the server still lists its tools');
    } finally {
      await mcp.close();
    }
  });

  it('answers garbage and an oversized line without an id, then serves the next request (raw stdio)', async () => {
    const child = spawn(process.execPath, [MCP_BIN, '--no-daemon', '--audit-dir', 'off', '--max-input-bytes', '100000'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const lines = createInterface({ input: child.stdout! });
    const replies: any[] = [];
    const waiters: Array<() => void> = [];
    lines.on('line', (l) => {
      replies.push(JSON.parse(l));
      waiters.splice(0).forEach((w) => w());
    });
    const next = async (): Promise<any> => {
      while (!replies.length) await new Promise<void>((r) => waiters.push(r));
      return replies.shift();
    };
    try {
      child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
      assert.equal((await next()).id, 1);
      child.stdin!.write('this is not json\n');
      const parseErr = await next();
      assert.equal(parseErr.error.code, -32700);
      assert.equal(parseErr.id, undefined);
      // 1 MB in 64 KB writes, no id anywhere: streamed, dropped, answered without an id.
      child.stdin!.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"');
      for (let i = 0; i < 16; i++) child.stdin!.write('y'.repeat(65_536));
      child.stdin!.write('"}}\n');
      const big = await next();
      assert.equal(big.error.code, -32600);
      assert.match(big.error.message, /at most 100000 bytes/);
      child.stdin!.write('{"jsonrpc":"2.0","id":"two","method":"tools/list"}\n');
      const list = await next();
      assert.equal(list.id, 'two');
      assert.ok(list.result.tools.length > 10);
      assert.equal(child.exitCode, null, 'still running');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('finds the id of an unreadable request at either end', () => {
    assert.equal(requestIdOf('{"method":"tools/call","params":{"a":"', 'aaaa"}},"jsonrpc":"2.0","id":17}'), 17);
    assert.equal(requestIdOf('{"jsonrpc":"2.0","id":"abc","method":"x","params":{"t":"', 'zzz'), 'abc');
    assert.equal(requestIdOf('{"method":"x","params":{"id":5,"t":"', 'zz"}}'), undefined, 'a nested id is not the request id');
    assert.equal(requestIdOf('garbage', 'garbage'), undefined);
  });
});
