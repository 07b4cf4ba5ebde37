// The e2e run's verdict from its suites' counts: a run passes only when tests ran, none failed, every
// suite finished, and — under CI — none was skipped (a skip there hides missing work). Shared by run.mjs
// and its unit test (test/ci/e2eVerdict.test.ts).

/** True when CI is set to anything but "", "0" or "false" (the rule of .mocharc.cjs). */
export function inCI(env = process.env) {
  return !!env.CI && !/^(0|false)$/i.test(env.CI);
}

/** Counts of a mocha Runner, filled as it runs: passed, failed, skipped and the skipped tests' titles. */
export function countRun(runner) {
  const c = { passed: 0, failed: 0, skipped: 0, skippedTitles: [] };
  runner.on('pass', () => c.passed++);
  runner.on('fail', () => c.failed++);
  runner.on('pending', (t) => {
    c.skipped++;
    c.skippedTitles.push(t.fullTitle());
  });
  return c;
}

/**
 * suites: [{ name, passed, failed, skipped, skippedTitles?, error? }] (error: the suite did not finish,
 * e.g. the host crashed; its counts are whatever it reported). `problems`: failures outside the suites.
 * Returns { ok, reasons, line } where `line` is the run's last line: counts and the verdict.
 */
export function verdict(suites, { ci = inCI(), problems = [] } = {}) {
  const sum = (k) => suites.reduce((a, s) => a + (s[k] ?? 0), 0);
  const passed = sum('passed');
  const failed = sum('failed');
  const skipped = sum('skipped');
  const reasons = [...problems];
  for (const s of suites) if (s.error) reasons.push(`${s.name}: ${s.error}`);
  if (failed) reasons.push(`${failed} test(s) failed`);
  if (passed + failed + skipped === 0) reasons.push('no test ran');
  if (ci && skipped) {
    const titles = suites.flatMap((s) => s.skippedTitles ?? []);
    reasons.push(`${skipped} test(s) skipped under CI, where a skip is a failure${titles.length ? `: ${titles.join('; ')}` : ''}`);
  }
  const per = suites.map((s) => `${s.name} ${s.passed ?? 0}/${s.failed ?? 0}/${s.skipped ?? 0}`).join(', ');
  const ok = reasons.length === 0;
  const line = `E2E ${ok ? 'PASSED' : 'FAILED'}: ${passed} passed, ${failed} failed, ${skipped} skipped${per ? ` (passed/failed/skipped: ${per})` : ''}`;
  return { ok, reasons, line };
}
