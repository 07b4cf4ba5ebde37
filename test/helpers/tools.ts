import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecider, type Confirmer } from '../../src/safety/decider';
import { SecretVault } from '../../src/safety/secrets';
import { secureTool } from '../../src/safety/secureTool';
import { normalizePolicy, type PolicySettings } from '../../src/safety/settings';
import type { SessionManager } from '../../src/session/manager';
import { allTools } from '../../src/tools/registry';
import type { ToolContext, ToolDefinition } from '../../src/contract/types';

/** A tool context over a session manager, as the extension builds it (downloads go to a temp folder). */
export function toolContext(sessions: SessionManager, settings: Partial<ToolContext['settings']> = {}): ToolContext {
  return {
    sessions,
    browser: () => sessions.ensure(),
    tab: async () => (await sessions.ensure()).activeTab(),
    settings: { allowedSchemes: [], downloadsDir: mkdtempSync(join(tmpdir(), 'ba-test-dl-')), maxWaitMs: 30_000, ...settings },
  };
}

/** The registry's tools as the chat panel gets them: each behind the secret vault. */
export function realTools(vault = new SecretVault()): ToolDefinition[] {
  return allTools.map((t) => secureTool(t, vault));
}

/**
 * The real safety decider with the default policy (plus `policy`), answering confirmations with
 * `confirm` — in place of the person at the VS Code modal, which cannot be shown in a unit test.
 */
export function realDecider(confirm: Confirmer, policy: Partial<PolicySettings> = {}, vault = new SecretVault()) {
  return createDecider(() => normalizePolicy(policy), confirm, undefined, { vault });
}
