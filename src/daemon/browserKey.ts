import { createHash } from 'node:crypto';
import { redactEndpoint } from '../session/remoteEngines';
import type { BrowserSpec } from './protocol';

/**
 * Sessions share a browser only when they ask for the same one: the same binary, profile and
 * headless mode (a client is never put in a browser other than the one its settings describe, and a
 * persistent profile's logins only reach clients that name that profile), or the same endpoint.
 */
export function browserKey(spec: BrowserSpec): string {
  if (spec.mode === 'relay') return 'relay';
  if (spec.mode === 'attach') {
    // Shown in status and logs, so without the token; two tokens (or header sets) are two browsers all the same.
    const shown = redactEndpoint(spec.endpoint);
    const secret = shown !== spec.endpoint || Object.keys(spec.headers ?? {}).length > 0;
    return `attach ${shown}${secret ? ` #${createHash('sha256').update(JSON.stringify([spec.endpoint, spec.headers ?? {}])).digest('hex').slice(0, 8)}` : ''}`;
  }
  const l = spec.launch;
  return `launch ${l.headless ? 'headless' : 'headed'}${l.userDataDir ? ` profile=${l.userDataDir}` : ''}${l.executablePath ? ` exe=${l.executablePath}` : ''}`;
}
