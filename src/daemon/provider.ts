import { CdpConnection } from '../session/cdp';
import type { BrowserHandle, BrowserProvider } from '../session/provider';
import { DaemonTransport, type DaemonClientOptions } from './client';
import type { BrowserSpec } from './protocol';

/**
 * Browsers through the per-user session daemon: one browser shared by every client, this client
 * seeing and driving only its own tabs. Tools, the safety policy, secrets and the audit log stay in
 * this process; only CDP messages cross the socket.
 */
export function daemonProvider(opts: DaemonClientOptions & { client: string | (() => string) }): BrowserProvider {
  const open = async (browser: BrowserSpec, cdpTimeoutMs?: number): Promise<BrowserHandle> => {
    const client = typeof opts.client === 'function' ? opts.client() : opts.client;
    const transport = await DaemonTransport.open({ ...opts, client, browser, cdpTimeoutMs });
    const connection = new CdpConnection(transport, transport.info.endpoint, { timeoutMs: cdpTimeoutMs });
    return {
      connection,
      kind: transport.info.kind,
      endpoint: transport.info.endpoint,
      headless: transport.info.headless,
      sessionId: transport.info.session,
      close: () => transport.end(),
    };
  };
  return {
    name: 'daemon',
    launch: (launch, s) => open({ mode: 'launch', launch }, s.cdpTimeoutMs),
    attach: (endpoint, s) => open({ mode: 'attach', endpoint, headers: s.headers, attachTab: s.attachTab }, s.cdpTimeoutMs),
  };
}
