// The bare cost of the daemon hop, for bench/daemon.mjs: one CDP call direct vs through the daemon's
// proxy transport (the default direct transport has no hop: its CDP calls are the direct ones).
import { CdpConnection as Cdp } from '../src/session/cdp';
import { resolveEndpoint } from '../src/session/endpoints';
import { daemonPaths } from '../src/daemon/paths';
import { daemonProvider } from '../src/daemon/provider';
import { join } from 'node:path';

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

async function time(conn: Cdp, sessionId: string, n: number): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await conn.send('Runtime.evaluate', { expression: '1' }, sessionId);
    t.push(performance.now() - t0);
  }
  return median(t);
}

async function pageSession(conn: Cdp): Promise<string> {
  const { targetId } = await conn.send('Target.createTarget', { url: 'about:blank' });
  return (await conn.send('Target.attachToTarget', { targetId, flatten: true })).sessionId;
}

export const CdpConnection = {
  async measure(endpoint: string, daemonDir: string, n: number): Promise<{ direct: number; daemon: number }> {
    const direct = await Cdp.connect(await resolveEndpoint(endpoint));
    const paths = daemonPaths({ BROWSER_AGENT_DAEMON_DIR: daemonDir });
    const handle = await daemonProvider({ client: 'bench', transport: 'proxy', paths, script: join(__dirname, '..', '..', 'dist', 'daemon.js') }).attach(endpoint, { attachTab: 'new' });
    const [ds, hs] = [await pageSession(direct), await pageSession(handle.connection)];
    await time(direct, ds, 50);
    await time(handle.connection, hs, 50);
    let a = 0;
    let b = 0;
    for (let r = 0; r < 4; r++) {
      a += await time(direct, ds, n / 4);
      b += await time(handle.connection, hs, n / 4);
    }
    direct.close();
    await handle.close();
    return { direct: a / 4, daemon: b / 4 };
  },
};
