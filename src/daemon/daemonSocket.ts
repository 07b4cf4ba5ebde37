import { chmodSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** True when something answers on the socket. */
export function socketAlive(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    const done = (v: boolean) => {
      clearTimeout(t);
      s.destroy();
      resolve(v);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** Listens on the socket, which only this user may reach (made under umask 077, then 0600). */
export async function listenPrivately(path: string, accept: (socket: Socket) => void): Promise<Server> {
  const server = createServer(accept);
  const oldMask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(oldMask);
  }
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  return server;
}
