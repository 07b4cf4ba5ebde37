import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_RELAY_PORT, formatPairingCode } from '../session/relayProtocol';

export interface RelayPairing {
  port: number;
  token: string;
}

/**
 * Where the pairing lives: it must outlive the daemon (and a reboot), so not in the daemon's runtime
 * folder. $BROWSER_AGENT_RELAY_FILE, else next to the daemon's socket when tests move that folder,
 * else ~/.browser-agent/relay.json (0600).
 */
export function relayPairingFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BROWSER_AGENT_RELAY_FILE) return env.BROWSER_AGENT_RELAY_FILE;
  if (env.BROWSER_AGENT_DAEMON_DIR) return join(env.BROWSER_AGENT_DAEMON_DIR, 'relay.json');
  return join(homedir(), '.browser-agent', 'relay.json');
}

export function readPairing(file = relayPairingFile()): RelayPairing | undefined {
  try {
    const p = JSON.parse(readFileSync(file, 'utf8')) as RelayPairing;
    return typeof p.token === 'string' && p.token.length >= 32 && Number.isInteger(p.port) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** The existing pairing, or a new one (a fresh 256-bit token); `renew` replaces the token. */
export function ensurePairing(opts: { file?: string; renew?: boolean; port?: number } = {}): RelayPairing & { code: string } {
  const file = opts.file ?? relayPairingFile();
  let p = opts.renew ? undefined : readPairing(file);
  if (!p) {
    const envPort = Number(process.env.BROWSER_AGENT_RELAY_PORT);
    p = { port: opts.port ?? (envPort > 0 ? envPort : DEFAULT_RELAY_PORT), token: randomBytes(32).toString('hex') };
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(p), { mode: 0o600 });
    if (process.platform !== 'win32') chmodSync(file, 0o600);
  }
  return { ...p, code: formatPairingCode(p.port, p.token) };
}
