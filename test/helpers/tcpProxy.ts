import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A real TCP proxy on 127.0.0.1 between us and a browser's DevTools port, to play a network that
 * fails: `stall()` stops forwarding on the connections open now without closing them (a wedged
 * proxy, a dead NAT entry, a remote fleet that froze); `cut()` closes them all (the remote browser
 * went away). New connections are forwarded unless `refuseNew` is set.
 */
export interface TcpProxy {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Of those, DevTools WebSocket handshakes (what a browser asks a person to allow, one by one). */
  readonly websockets: number;
  stall(): void;
  cut(): void;
  refuseNew: boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs: { client: Socket; upstream: Socket; stalled: boolean }[] = [];
  let accepted = 0;
  let websockets = 0;
  const proxy: TcpProxy = {
    port: 0,
    get accepted() {
      return accepted;
    },
    get websockets() {
      return websockets;
    },
    refuseNew: false,
    stall() {
      for (const p of pairs) p.stalled = true;
    },
    cut() {
      for (const p of pairs.splice(0)) {
        p.client.destroy();
        p.upstream.destroy();
      }
    },
    close: () => new Promise<void>((r) => (proxy.cut(), server.close(() => r()))),
  };
  const server: Server = createServer((client) => {
    if (proxy.refuseNew) return void client.destroy();
    accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, stalled: false };
    pairs.push(pair);
    // A stalled pair swallows what comes in both ways: nothing is answered, nothing is closed.
    client.once('data', (d) => /^GET \/devtools\/[^\r\n]*\r\n[\s\S]*upgrade: websocket/i.test(String(d)) && websockets++);
    client.on('data', (d) => pair.stalled || upstream.write(d));
    upstream.on('data', (d) => pair.stalled || client.write(d));
    for (const s of [client, upstream]) s.on('error', () => {});
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.port = (server.address() as AddressInfo).port;
  return proxy;
}
