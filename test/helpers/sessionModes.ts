import { BrowserSession } from '../../src/session/browserSession';
import type { RequestPolicy } from '../../src/session/requestRules';
import { daemonPaths } from '../../src/daemon/paths';
import { daemonProvider } from '../../src/daemon/provider';
import { TEST_LAUNCH } from './chromium';
import { DAEMON_BIN, daemonEnv } from './daemon';

/**
 * The ways a session reaches its browser: in this process (`--no-daemon`, the extension's own session),
 * through a session daemon of the test's own with a direct connection (the MCP server's default), and
 * with every CDP message through the daemon (its proxy transport, as the extension relay works).
 */
export const SESSION_MODES = ['in-process', 'daemon, direct', 'daemon, proxy'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];

export async function openSession(mode: SessionMode, requestPolicy?: RequestPolicy): Promise<BrowserSession> {
  if (mode === 'in-process') return BrowserSession.launch({ ...TEST_LAUNCH, requestPolicy });
  const provider = daemonProvider({ client: `test (${mode})`, paths: daemonPaths(daemonEnv(1500)), script: DAEMON_BIN, transport: mode === 'daemon, proxy' ? 'proxy' : 'direct' });
  return BrowserSession.open(await provider.launch(TEST_LAUNCH, {}), 'existing', requestPolicy);
}
