import { pageCall, pageFns } from '../page/fn';
import perfFns from '../page/actions/performance.ts?pagefn';
import { BrowserAgentError } from '../base/errors';
import type { Tab } from '../session/tab';
import { worldName } from '../session/worlds';
import type { PerfReport } from '../page/actions/performance';

const perfPage = pageFns<typeof import('../page/actions/performance')>(perfFns);

/** The page's load and runtime metrics as the browser recorded them, read in an isolated world. */
export async function readPerformance(tab: Tab): Promise<PerfReport> {
  tab.assertNoDialog();
  const page = await tab.session();
  const { executionContextId } = await page.send('Page.createIsolatedWorld', { frameId: tab.targetId, worldName: worldName('perf'), grantUniveralAccess: false }, 5000);
  const res = await page.send('Runtime.evaluate', { expression: pageCall(perfPage.report), contextId: executionContextId, returnByValue: true, awaitPromise: true }, 10_000);
  if (res.exceptionDetails) throw new BrowserAgentError('CDP_ERROR', `Reading the page's performance failed: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
  return res.result.value as PerfReport;
}

const kb = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : bytes >= 1000 ? `${Math.round(bytes / 1000)} KB` : `${bytes} B`);

/** Google's thresholds for the Core Web Vitals (web.dev): good / needs improvement / poor. */
function grade(value: number, good: number, poor: number): string {
  return value <= good ? 'good' : value <= poor ? 'needs improvement' : 'poor';
}

function file(url: string, origin: string): string {
  const short = url.startsWith(origin) ? url.slice(origin.length) || '/' : url;
  return short.length > 120 ? `${short.slice(0, 119)}…` : short;
}

/** The report as lines for a model: load milestones, the vitals with their grade, main-thread blocking, the heaviest files. */
export function formatPerformance(r: PerfReport): string {
  const origin = (() => {
    try {
      return new URL(r.url).origin;
    } catch {
      return '';
    }
  })();
  const lines: string[] = [];
  if (r.nav) {
    const load = r.nav.load ? `, load ${r.nav.load} ms` : ', load not finished';
    lines.push(`Load (${r.nav.type}): first byte ${r.nav.ttfb} ms, DOMContentLoaded ${r.nav.domContentLoaded} ms${load}; document ${kb(r.nav.transfer)}.`);
  }
  if (r.fcp !== undefined) lines.push(`First Contentful Paint: ${r.fcp} ms (${grade(r.fcp, 1800, 3000)}).`);
  if (r.lcp) lines.push(`Largest Contentful Paint: ${r.lcp.time} ms (${grade(r.lcp.time, 2500, 4000)}), element: ${r.lcp.element}.`);
  if (r.cls) lines.push(`Cumulative Layout Shift: ${r.cls.value.toFixed(3)} (${grade(r.cls.value, 0.1, 0.25)}) from ${r.cls.shifts} shift${r.cls.shifts === 1 ? '' : 's'}${r.cls.largest ? `; the largest moved ${r.cls.largest}` : ''}.`);
  if (r.longTasks) {
    lines.push(
      r.longTasks.count
        ? `Main thread: ${r.longTasks.count} long task${r.longTasks.count === 1 ? '' : 's'} (over 50 ms), ${r.longTasks.total} ms in all, the longest ${r.longTasks.longest} ms; total blocking time ${r.longTasks.blocking} ms (${grade(r.longTasks.blocking, 200, 600)}).`
        : 'Main thread: no long tasks (none over 50 ms).',
    );
  }
  const res = r.resources;
  const types = Object.entries(res.byType)
    .sort((a, b) => b[1].transfer - a[1].transfer)
    .map(([t, v]) => `${t} ${v.count} (${kb(v.transfer)})`)
    .join(', ');
  lines.push(`Files: ${res.count} loaded, ${kb(res.transfer)} transferred${types ? `: ${types}` : ''}${res.opaque ? `; ${res.opaque} from other sites without timing access (size unknown)` : ''}.`);
  if (res.largest.length) lines.push(`Largest: ${res.largest.map((x) => `${file(x.url, origin)} ${kb(x.transfer)}`).join('; ')}.`);
  if (res.slowest.length) lines.push(`Slowest: ${res.slowest.map((x) => `${file(x.url, origin)} ${x.ms} ms`).join('; ')}.`);
  const missing = ['largest-contentful-paint', 'layout-shift', 'longtask'].filter((t) => !r.supported.includes(t));
  if (missing.length) lines.push(`Not recorded by this browser: ${missing.join(', ')}.`);
  return lines.join('\n');
}
