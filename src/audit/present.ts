import type { TaskSummary } from './reader';
import type { StepRecord } from './types';

/** Words and icons for the history view; kept free of the vscode API so they are testable. */

export function outcomeIcon(outcome: string | undefined, truncated = false): string {
  if (truncated) return 'warning';
  switch (outcome) {
    case 'success':
      return 'pass';
    case 'failure':
      return 'error';
    case 'cancelled':
      return 'circle-slash';
    case 'interrupted':
      return 'debug-disconnect';
    case 'ended':
      return 'history';
    default:
      return 'loading~spin';
  }
}

/** `22 Nov 14:03` in the person's locale-neutral short form (UTC in tests, local in the view). */
export function shortTime(iso: string | undefined, tz?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: tz });
}

export function taskDescription(t: TaskSummary, tz?: string): string {
  const outcome = t.truncated ? 'cut off' : (t.outcome ?? 'running');
  return `${outcome} · ${t.steps} step${t.steps === 1 ? '' : 's'} · ${shortTime(t.startedAt, tz)}`;
}

export function stepIcon(s: StepRecord): string {
  if (s.decision === 'refused' || s.decision === 'blocked' || s.decision === 'needs-confirmation') return 'circle-slash';
  if (!s.ok) return 'error';
  if (s.risk === 'confirm') return 'shield';
  if (s.risk === 'notify') return 'bell';
  return 'check';
}

export function stepLabel(s: StepRecord): string {
  return `${s.step}. ${s.action ?? s.tool}`;
}

export function stepDescription(s: StepRecord): string {
  const parts = [s.tool];
  if (s.risk !== 'auto') parts.push(`${s.risk} → ${s.decision}${s.rule ? ` (${s.rule})` : ''}`);
  if (!s.ok) parts.push(s.errorCode ?? 'error');
  parts.push(`${s.durationMs} ms`);
  return parts.join(' · ');
}

const esc = (v: unknown) =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The step details page: what was done, to what, where, why it was allowed, what came back,
 * and the before/after screenshots. `img` maps a file name in the task folder to a webview URI.
 */
export function stepHtml(s: StepRecord, img: (file: string) => string, cspSource: string): string {
  const row = (k: string, v: unknown) => (v === undefined || v === '' ? '' : `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`);
  const t = s.target;
  const shots = (['before', 'after'] as const)
    .filter((k) => s.screenshots?.[k])
    .map((k) => `<figure><figcaption>${k}</figcaption><img src="${esc(img(s.screenshots![k]!))}" alt="${k}"></figure>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource}; style-src 'unsafe-inline';">
<style>body{font-family:var(--vscode-font-family);color:var(--vscode-foreground)}th{text-align:left;padding-right:1em;vertical-align:top;white-space:nowrap}
td{word-break:break-all}pre{white-space:pre-wrap;background:var(--vscode-textCodeBlock-background);padding:.5em}
figure{display:inline-block;margin:0 1em 1em 0;max-width:48%}img{max-width:100%;border:1px solid var(--vscode-panel-border)}</style></head><body>
<h2>${esc(stepLabel(s))}</h2>
<table>
${row('Tool', s.tool)}${row('Time', s.ts)}${row('Duration', `${s.durationMs} ms`)}
${row('Risk', s.risk)}${row('Decision', s.decision)}${row('Rule', s.rule)}${row('Why', s.reason)}
${row('Result', s.ok ? 'ok' : `failed (${s.errorCode ?? 'error'})`)}
${row('Target', t ? `${t.role ?? '?'} "${t.name ?? ''}"` : undefined)}${row('Selector', t?.selector)}${row('XPath', t?.xpath)}${row('Frame', t?.frame)}
${row('Before', [s.before.title, s.before.url].filter(Boolean).join(' — '))}${row('After', [s.after.title, s.after.url].filter(Boolean).join(' — '))}
</table>
<h3>Input${s.redacted ? ' (secrets redacted)' : ''}</h3><pre>${esc(JSON.stringify(s.input, null, 2))}</pre>
${s.result ? `<h3>Result</h3><pre>${esc(s.result)}</pre>` : ''}
${shots ? `<h3>Screenshots</h3>${shots}` : ''}
</body></html>`;
}
