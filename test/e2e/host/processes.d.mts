// Types of processes.mjs for the TypeScript suites that use it.
export const MARK_VAR: string;
export function markedProcesses(runId: string): { pid: number; cmd: string }[];
export function killGroup(pid: number, signal: NodeJS.Signals): boolean;
export function groupMembers(pgid: number): number[];
export function groupAlive(pid: number): boolean;
export function sleep(ms: number): Promise<void>;
export function stopGroup(pid: number, graceMs?: number): Promise<'gone' | 'terminated' | 'killed'>;
