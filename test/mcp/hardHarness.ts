// What the hard-pages sweeps (hardPages.test.ts, hardPages2.test.ts) share: picking refs out of snapshot text by
// role and visible name, as a model reads them, and the loopback recorder pages report to.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpProcess } from '../helpers/mcpProcess';
import type { TestServer } from '../helpers/servers';

export interface Received {
  kind: string;
  data: any;
  origin: string;
}

export const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(s));
  });

/** The element line whose role matches `role` and whose quoted name matches `name` (a string: exactly). */
export function lineOf(snap: string, role: string, name: string | RegExp): string {
  const want = typeof name === 'string' ? (n: string) => n === name : (n: string) => name.test(n);
  const l = snap.split('\n').find((x) => {
    const m = /^\[[^\]]+\] (\S+)(?: "((?:[^"\\]|\\.)*)")?/.exec(x);
    return !!m && new RegExp(`^(?:${role})$`).test(m[1]) && want(m[2] ?? '');
  });
  assert.ok(l, `no ${role} line named ${name} in:\n${snap}`);
  return l;
}
export const refIn = (line: string) => /^\[([^\]]+)\]/.exec(line)![1];
export const ref = (snap: string, role: string, name: string | RegExp) => refIn(lineOf(snap, role, name));

/** Routes every page of a sweep reports to: `/record` (the page's own state as JSON) and `/submit` (a form POST). */
export function recorder(received: Received[], srv: () => TestServer): Record<string, (req: IncomingMessage, res: ServerResponse) => void> {
  return {
    '/record': async (req, res) => {
      const { kind, data } = JSON.parse(await body(req));
      received.push({ kind, data, origin: srv().origin });
      res.writeHead(204).end();
    },
    '/submit': async (req, res) => {
      const data = Object.fromEntries(new URLSearchParams(await body(req)));
      received.push({ kind: 'submit', data, origin: srv().origin });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thanks</title><h1>Thank you</h1>');
    },
  };
}

/** A model's side of the conversation: calls through the MCP client, and the page's reports read back in order. */
export function modelDriver(mcp: () => McpProcess, received: Received[], srv: () => TestServer) {
  const dump = !!process.env.HARD_DUMP;
  let seen = 0;
  const d = {
    /** The next record of `kind` the page sent since the last one read (waits up to 3 s for a late one). */
    async got(kind: string): Promise<any> {
      for (let i = 0; i < 60; i++) {
        const at = received.findIndex((r, n) => n >= seen && r.kind === kind);
        if (at >= 0) {
          seen = at + 1;
          return received[at].data;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`the page never sent "${kind}"; received: ${JSON.stringify(received.slice(seen))}`);
    },
    async call(name: string, args: Record<string, unknown> = {}) {
      const r = await mcp().call(name, args);
      if (dump) console.log(`--- ${name} ${JSON.stringify(args)}\n${r.text}`);
      return r;
    },
    async ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
      const r = await d.call(name, args);
      assert.equal(r.isError, false, `${name} failed: ${r.text}`);
      return r.text;
    },
    snapshot: () => d.ok('browser_snapshot'),
    async open(path: string): Promise<string> {
      seen = received.length;
      await d.ok('browser_navigate', { url: srv().origin + path });
      return d.snapshot();
    },
  };
  return d;
}
