/**
 * True while a process with this pid runs, also one of another user (signal 0 then fails with EPERM).
 * `ifUnknown` answers a pid that is not a positive whole number: callers differ in which way is safe.
 */
export function processAlive(pid: number, ifUnknown: boolean): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return ifUnknown;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
