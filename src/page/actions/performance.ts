// Runs in an isolated world of the page (src/actions/performance.ts): the page's own scripts cannot
// replace PerformanceObserver or the timeline this reads. Everything here is buffered by the browser from
// the document's start, so a page that loaded before the call is measured as it loaded.

export interface PerfReport {
  url: string;
  nav?: { ttfb: number; domContentLoaded: number; load: number; transfer: number; type: string };
  fcp?: number;
  lcp?: { time: number; element: string };
  cls?: { value: number; shifts: number; largest: string };
  longTasks?: { count: number; total: number; longest: number; blocking: number };
  resources: {
    count: number;
    transfer: number;
    opaque: number;
    byType: Record<string, { count: number; transfer: number }>;
    largest: Array<{ url: string; type: string; transfer: number; ms: number }>;
    slowest: Array<{ url: string; type: string; transfer: number; ms: number }>;
  };
  supported: string[];
}

function describe(el: Element | null | undefined): string {
  if (!el) return '(removed from the page)';
  const tag = el.localName;
  const id = el.id ? `#${el.id}` : '';
  const cls = !id && typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
  const src = (el as HTMLImageElement).currentSrc || el.getAttribute('src') || '';
  const file = src ? ` ${src.split(/[?#]/)[0].split('/').pop()}` : '';
  const text = !file ? ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60) : '';
  return `${tag}${id}${cls}${file}${text ? ` "${text}"` : ''}`;
}

/** What a PerformanceObserver has buffered for `type`; undefined when this browser does not record it. */
function buffered(type: string): Promise<PerformanceEntry[] | undefined> {
  if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const got: PerformanceEntry[] = [];
    const o = new PerformanceObserver((list) => void got.push(...list.getEntries()));
    o.observe({ type, buffered: true });
    // Buffered entries are delivered in the next task.
    setTimeout(() => {
      got.push(...o.takeRecords());
      o.disconnect();
      resolve(got);
    }, 30);
  });
}

/** Cumulative Layout Shift as Chrome scores it: the worst session window (shifts < 1 s apart, at most 5 s long). */
function clsOf(shifts: Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node; currentRect?: DOMRectReadOnly }> }>): PerfReport['cls'] {
  let worst = 0;
  let current = 0;
  let start = 0;
  let last = 0;
  let largest: (typeof shifts)[number] | undefined;
  const counted = shifts.filter((s) => !s.hadRecentInput);
  for (const s of counted) {
    if (current && (s.startTime - last > 1000 || s.startTime - start > 5000)) current = 0;
    if (!current) start = s.startTime;
    current += s.value;
    last = s.startTime;
    worst = Math.max(worst, current);
    if (!largest || s.value > largest.value) largest = s;
  }
  // The element that moved most: the biggest of the shift's sources, the page's body and root aside.
  const area = (x: { currentRect?: DOMRectReadOnly }) => (x.currentRect ? x.currentRect.width * x.currentRect.height : 0);
  const elementOf = (n?: Node) => (n instanceof Element ? n : n?.parentElement ?? undefined);
  const moved = (largest?.sources ?? []).filter((x) => { const e = elementOf(x.node); return e && e.localName !== 'body' && e.localName !== 'html'; }).sort((a, b) => area(b) - area(a));
  return { value: worst, shifts: counted.length, largest: moved.length ? describe(elementOf(moved[0].node)) : '' };
}

const round = (n: number) => Math.round(n);

export async function report(): Promise<PerfReport> {
  const [lcps, shifts, longs] = await Promise.all([buffered('largest-contentful-paint'), buffered('layout-shift'), buffered('longtask')]);
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const fcp = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
  const lcp = lcps?.at(-1) as (PerformanceEntry & { element?: Element; renderTime: number; loadTime: number }) | undefined;
  const out: PerfReport = {
    url: location.href,
    supported: ['largest-contentful-paint', 'layout-shift', 'longtask'].filter((t) => PerformanceObserver.supportedEntryTypes?.includes(t)),
    resources: { count: 0, transfer: 0, opaque: 0, byType: {}, largest: [], slowest: [] },
  };
  if (nav) out.nav = { ttfb: round(nav.responseStart), domContentLoaded: round(nav.domContentLoadedEventEnd), load: round(nav.loadEventEnd), transfer: nav.transferSize, type: nav.type };
  if (fcp) out.fcp = round(fcp.startTime);
  if (lcp) out.lcp = { time: round(lcp.startTime), element: describe(lcp.element) };
  if (shifts) out.cls = clsOf(shifts as never);
  if (longs) {
    // Total blocking time's idea: the part of each long task past 50 ms is what kept input waiting.
    const d = longs.map((t) => t.duration);
    out.longTasks = { count: d.length, total: round(d.reduce((a, b) => a + b, 0)), longest: round(Math.max(0, ...d)), blocking: round(d.reduce((a, b) => a + Math.max(0, b - 50), 0)) };
  }
  const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const rows = res.map((r) => ({ url: r.name, type: r.initiatorType, transfer: r.transferSize, ms: round(r.duration) }));
  for (const r of rows) {
    const t = (out.resources.byType[r.type] ??= { count: 0, transfer: 0 });
    t.count++;
    t.transfer += r.transfer;
    out.resources.transfer += r.transfer;
  }
  out.resources.count = rows.length;
  // Cross-origin files without Timing-Allow-Origin report 0 bytes.
  out.resources.opaque = res.filter((r) => r.transferSize === 0 && r.decodedBodySize === 0 && !r.name.startsWith(location.origin)).length;
  out.resources.largest = [...rows].sort((a, b) => b.transfer - a.transfer).filter((r) => r.transfer > 0).slice(0, 5);
  out.resources.slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5);
  return out;
}
