import WebSocket from 'ws';
import { BrowserAgentError } from '../base/errors';
import { isBrowserPool, POOL_CONNECT_TIMEOUT_MS, redactEndpoint, refusedByEndpoint, remoteBrowserGone, unreachableEndpoint } from './remoteEngines';
import { ignore } from '../base/ignore';

/**
 * How CDP messages travel: one JSON text per message, in order. A WebSocket to the browser is one
 * transport; the session daemon's Unix socket (src/daemon) and a Chrome-extension relay are others.
 * CdpConnection only sees this interface.
 */
export interface CdpTransport {
  send(text: string): void;
  /** Set once by the connection; called with every message received, in order. */
  onmessage?: (text: string) => void;
  /** Called once when the transport is gone (closed by either side or failed). */
  onclose?: () => void;
  /** Why it closed, when it knows better than "connection closed" (e.g. the session daemon exited). */
  closeReason?: string;
  close(): void;
}

export interface WebSocketTransportOptions {
  headers?: Record<string, string>;
  /** Timeout of the WebSocket handshake (default 10 s; 30 s for a remote-browser engine, which may queue it). */
  connectTimeoutMs?: number;
}

/** A transport over a WebSocket to a browser's DevTools endpoint. */
export function connectWebSocket(url: string, opts: WebSocketTransportOptions = {}): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    const handshakeTimeout = opts.connectTimeoutMs ?? (isBrowserPool(url) ? POOL_CONNECT_TIMEOUT_MS : 10_000);
    try {
      ws = new WebSocket(url, { headers: opts.headers, perMessageDeflate: false, maxPayload: 512 * 1024 * 1024, handshakeTimeout });
    } catch (e) {
      reject(new BrowserAgentError('ATTACH_FAILED', `Invalid CDP WebSocket URL ${redactEndpoint(url)}: ${(e as Error).message}`));
      return;
    }
    const fail = (e: BrowserAgentError) => {
      ws.removeAllListeners();
      ws.on('error', () => {});
      reject(e);
    };
    const onError = (e: Error) => fail(unreachableEndpoint(url, e.message, /handshake has timed out/i.test(e.message)));
    ws.once('error', onError);
    // An engine's refusal (401 token, 429 pool full, 408 queue timeout) comes as the upgrade's HTTP answer.
    ws.once('unexpected-response', (req, res) => {
      fail(refusedByEndpoint(url, res.statusCode ?? 0));
      res.resume();
      req.destroy();
    });
    ws.once('open', () => {
      ws.off('error', onError);
      let closed = false;
      const transport: CdpTransport = {
        send: (text) => ws.send(text, (err) => err && ws.terminate()),
        close: () => {
          try {
            ws.close();
          } catch (e) {
            ignore(e, 'already closing');
          }
          gone();
        },
      };
      const gone = () => {
        if (closed) return;
        closed = true;
        transport.onclose?.();
      };
      ws.on('message', (data) => transport.onmessage?.(data.toString()));
      // 1006: no closing handshake; the process at the other end died or the network dropped.
      ws.on('close', (code) => {
        if (isBrowserPool(url)) transport.closeReason ??= remoteBrowserGone(url);
        else if (code === 1006) transport.closeReason ??= 'The browser went away before the call finished (it exited, crashed or was killed, or the network to it dropped).';
        gone();
      });
      ws.on('error', gone);
      resolve(transport);
    });
  });
}
