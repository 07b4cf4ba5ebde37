// browser-agent-daemon: the per-user session daemon (issue 17). `run` serves in the foreground;
// `start` starts it in the background when none is running; `status` lists sessions; `stop` ends it.
import { parseArgs } from 'node:util';
import { errorMessage } from '../base/errors';
import { connectDaemon, daemonControl } from './client';
import { daemonPaths, ensurePrivateSocket } from './paths';
import { ensurePairing } from './relayPairing';
import { DEFAULT_IDLE_MS, Daemon, socketAlive } from './server';

const HELP = `browser-agent-daemon — one browser for every Browser Agent client, a tab per client

Usage: browser-agent-daemon <command> [--json]
  status   show the daemon, its browsers and sessions (client, tabs, last activity)
  start    start the daemon in the background unless one is running
  stop     end every session, close the browsers it launched, and exit
  run      serve in the foreground (what "start" runs)
  pair     print the pairing code for the Browser Agent Chrome extension and turn relay mode on
           (--renew: a new token; the extension must then be paired again)

Environment:
  BROWSER_AGENT_DAEMON_DIR      folder of the socket and log (default $XDG_RUNTIME_DIR/browser-agent,
                                else <tmp>/browser-agent-<uid>)
  BROWSER_AGENT_DAEMON_IDLE_MS  exit after this long without a session (default ${DEFAULT_IDLE_MS})`;

function ago(ms: number): string {
  const s = Math.round((Date.now() - ms) / 1000);
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, renew: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  const cmd = positionals[0] ?? 'status';
  const paths = daemonPaths();
  if (values.help || cmd === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  // Never talk to (or mistake for ours) a socket another user put in the folder.
  ensurePrivateSocket(paths);
  switch (cmd) {
    case 'run': {
      const idle = Number(process.env.BROWSER_AGENT_DAEMON_IDLE_MS);
      const daemon = new Daemon({ paths, idleMs: idle > 0 ? idle : undefined, log: (l) => process.stdout.write(`${new Date().toISOString()} ${l}\n`) });
      try {
        await daemon.listen();
      } catch (e) {
        process.stderr.write(`browser-agent-daemon: ${errorMessage(e)}\n`);
        return 1;
      }
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void daemon.stop(sig));
      await daemon.stopped;
      return 0;
    }
    case 'start': {
      if (await socketAlive(paths.socket)) {
        const st = await daemonControl('status');
        process.stdout.write(`already running (pid ${st.pid}, ${paths.socket})\n`);
        return 0;
      }
      (await connectDaemon({ paths })).destroy();
      const st = await daemonControl('status');
      process.stdout.write(`started (pid ${st.pid}, ${paths.socket})\n`);
      return 0;
    }
    case 'stop': {
      if (!(await socketAlive(paths.socket))) {
        process.stdout.write('not running\n');
        return 0;
      }
      const { pid } = await daemonControl('status');
      await daemonControl('shutdown');
      for (let i = 0; i < 100 && (await socketAlive(paths.socket)); i++) await new Promise((r) => setTimeout(r, 100));
      process.stdout.write(`stopped (pid ${pid})\n`);
      return 0;
    }
    case 'pair': {
      const pairing = ensurePairing({ renew: values.renew });
      // A running daemon keeps the token it read: a renewed pairing needs a restart (stop; the next client starts it).
      const relay = await daemonControl('relay', {}, { spawn: true });
      process.stdout.write(values.json ? `${JSON.stringify({ code: pairing.code, ...relay })}\n` : `Pairing code (paste it into the extension's side panel):\n${pairing.code}\nRelay endpoint 127.0.0.1:${relay.port}, extension ${relay.connected ? 'connected' : 'not connected'}\n`);
      return 0;
    }
    case 'status': {
      if (!(await socketAlive(paths.socket))) {
        if (values.json) process.stdout.write('{"running":false}\n');
        else process.stdout.write(`not running (${paths.socket})\n`);
        return values.json ? 0 : 3;
      }
      const st = await daemonControl('status');
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ running: true, ...st }, null, 2)}\n`);
        return 0;
      }
      const lines = [`running: pid ${st.pid}, protocol ${st.version}, ${st.socket}, up ${ago(st.startedAt).replace(' ago', '')}, idle exit after ${st.idleExitMs / 1000}s without a session`];
      for (const b of st.browsers) lines.push(`browser ${b.key}: ${b.kind}${b.pid ? ` pid ${b.pid}` : ''}${b.headless ? ' headless' : ''}, ${b.sessions} session(s), ${b.endpoint}`);
      if (!st.sessions.length) lines.push('no sessions');
      for (const s of st.sessions) {
        lines.push(`session ${s.id}  ${s.client} (pid ${s.pid})${s.connected ? '' : ' [reconnecting]'}, last activity ${ago(s.lastActivity)}`);
        for (const t of s.tabs) lines.push(`  tab "${t.title}" ${t.url}`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    }
    default:
      process.stderr.write(`browser-agent-daemon: unknown command ${cmd}\n\n${HELP}\n`);
      return 2;
  }
}

/** `browser-agent-daemon <argv>`: runs the command and exits with its code. */
export function runDaemonCli(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`browser-agent-daemon: ${errorMessage(e)}\n`);
      process.exit(1);
    },
  );
}
