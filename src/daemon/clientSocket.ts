import type { Socket } from 'node:net';
import { errorMessage, isAgentError } from '../base/errors';
import { isControl, LineReader, PROTOCOL_VERSION, type ClientMessage, type DaemonMessage } from './protocol';
import type { DaemonSession } from './session';

/** Longest line a client may send (a CDP command carries at most the MCP server's 4 MB input). */
export const MAX_CLIENT_LINE = 32 * 1024 * 1024;
/** How long a new connection has to say hello. */
const HELLO_MS = 5000;

export type Hello = Extract<ClientMessage, { t: 'hello' }>;

export interface ClientSocketHandlers {
  /** A hello that asks for a browser or resumes a session: the session it opens. */
  open(hello: Hello, socket: Socket): Promise<DaemonSession>;
  /** A control message (status, focus, end…), with or without a session. */
  control(msg: ClientMessage, session: DaemonSession | undefined, send: (m: DaemonMessage) => void): Promise<void>;
  /** The socket of a session closed (its client may come back). */
  dropped(session: DaemonSession): void;
}

/**
 * One connection from a client: a hello first (the protocol version, then a session to open or resume, or
 * none for control only), then CDP lines for the session's browser and control messages, each a line.
 */
export function serveClient(socket: Socket, h: ClientSocketHandlers): void {
  socket.setEncoding('utf8');
  let session: DaemonSession | undefined;
  let hello = false;
  const helloTimer = setTimeout(() => !hello && socket.destroy(), HELLO_MS);
  const send = (msg: DaemonMessage) => !socket.destroyed && socket.write(`${JSON.stringify(msg)}\n`);
  const reader = new LineReader((line) => {
    if (session && !isControl(line)) return session.direct ? undefined : session.request(line);
    let msg: ClientMessage;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (!hello) {
      if (msg.t !== 'hello') return socket.destroy();
      hello = true;
      clearTimeout(helloTimer);
      if (msg.v !== PROTOCOL_VERSION) {
        send({ t: 'error', code: 'VERSION_MISMATCH', message: `The running session daemon speaks protocol ${PROTOCOL_VERSION}, this client ${msg.v}.`, hint: 'Stop it with `browser-agent-daemon stop` (or wait for it to exit when idle).' });
        return void socket.end();
      }
      if (!msg.browser && !msg.resume) return void send({ t: 'welcome', v: PROTOCOL_VERSION, daemonPid: process.pid });
      socket.pause();
      h.open(msg, socket).then(
        (s) => {
          session = s;
          socket.resume();
        },
        (e) => {
          send({ t: 'error', code: isAgentError(e) ? e.code : 'LAUNCH_FAILED', message: errorMessage(e), hint: isAgentError(e) ? e.hint : undefined });
          socket.end();
        },
      );
      return;
    }
    void h.control(msg, session, send);
  }, MAX_CLIENT_LINE, (head) => {
    // Far larger than any CDP command a client sends: answered with an error, never held whole.
    const id = /^\{"id":(\d+)/.exec(head)?.[1];
    const message = `A message of more than ${MAX_CLIENT_LINE} characters was refused by the session daemon.`;
    if (session && id && !session.direct) session.deliver(JSON.stringify({ id: Number(id), error: { code: -32600, message } }));
    else send({ t: 'error', code: 'INVALID_INPUT', message });
  });
  socket.on('data', (d: string) => reader.push(d));
  socket.on('error', () => {});
  socket.on('close', () => {
    clearTimeout(helloTimer);
    if (session && session.socket === socket) h.dropped(session);
  });
}
