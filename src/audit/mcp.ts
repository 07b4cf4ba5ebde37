import type { CallRecorder } from '../safety/pipeline';
import { createAuditHooks } from './hooks';
import { AuditRecorder } from './recorder';

/** `--audit-dir <path>` or `--audit-dir=<path>` from the MCP server's arguments. */
export function auditDirFromArgs(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--audit-dir') return argv[i + 1];
    if (a.startsWith('--audit-dir=')) return a.slice('--audit-dir='.length);
  }
  return undefined;
}

/**
 * The MCP server's audit: one implicit task for the whole process (an MCP client has no notion
 * of a task), closed with `ended` when the server exits. `record` is the tool pipeline's option.
 */
export function createMcpAudit(dir: string): { recorder: AuditRecorder; record: CallRecorder; close(): Promise<void> } {
  const recorder = new AuditRecorder({ root: dir });
  const record: CallRecorder = (call) => createAuditHooks(recorder, { ...call, implicit: { source: 'mcp', per: 'process' } });
  return { recorder, record, close: () => recorder.dispose() };
}
