import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = string | ((req: IncomingMessage, res: ServerResponse) => void);

export interface TestServer {
  url: string;
  origin: string;
  port: number;
  server: Server;
  /** Adds or replaces a route at runtime. */
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (or `host`, e.g. `::1`) with a random port, serving the given HTML routes. */
export async function startServer(routes: Record<string, Route> = {}, host = '127.0.0.1'): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handler = table.get(path);
    if (handler === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    } else if (typeof handler === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(handler);
    } else {
      handler(req, res);
    }
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/`,
    origin,
    port,
    server,
    route: (path, handler) => table.set(path, handler),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

/** A port that was free a moment ago: nothing listens there, so a connection to it is refused. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}
