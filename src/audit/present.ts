import { unfence } from '../base/unfence';
import { frameWords, isReadableFrame } from './frame';
import type { TaskSummary } from './reader';
import type { StepRecord } from './types';
import { outcomeLabel } from './words';

/** Words and icons for the history view; kept free of the vscode API so they are testable. */

export function outcomeIcon(outcome: string | undefined, truncated = false, status?: string): string {
  if (truncated || status === 'unverified') return 'warning';
  switch (status === 'stopped' ? 'cancelled' : outcome) {
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

const SOURCES: Record<string, string> = { chat: 'Chat', copilot: 'Copilot', mcp: 'MCP', replay: 'Replay', api: 'API', command: 'Run Tool' };

const outcomeOf = (t: TaskSummary) => (t.truncated ? 'Log cut off' : outcomeLabel(t.status ?? t.outcome));
const stepCount = (n: number) => `${n} step${n === 1 ? '' : 's'}`;
const sourceOf = (t: TaskSummary) => (t.source ? SOURCES[t.source] ?? t.source : undefined);

/** `Done · 3 steps · Chat · 22 Nov, 10:05`: the same words as the chat panel. */
export function taskDescription(t: TaskSummary, tz?: string): string {
  return [outcomeOf(t), stepCount(t.steps), sourceOf(t), shortTime(t.startedAt, tz)].filter(Boolean).join(' · ');
}

/** A goal with its URLs shortened (`https://www.x.org/a` → `x.org/a`): the tree row has little room. */
export function shortGoal(goal: string): string {
  return goal.replace(/\bhttps?:\/\/(?:www\.)?/gi, '').replace(/\s+/g, ' ').trim();
}

/**
 * The Task History row: `Done · 3 steps: Open x.org/a …`. Outcome and step count lead, since at the
 * default sidebar width the end of the row is cut off; source and time go to the description.
 */
export function taskLabel(t: TaskSummary): string {
  return `${outcomeOf(t)} · ${stepCount(t.steps)}: ${shortGoal(t.goal)}`;
}

/** `Chat · 22 Nov, 10:05` (`Chat follow-up · …` for a later turn of a thread): the rest of the row, after the label. */
export function taskRowDescription(t: TaskSummary, tz?: string): string {
  const source = sourceOf(t);
  return [source && t.thread ? `${source} follow-up` : source, shortTime(t.startedAt, tz)].filter(Boolean).join(' · ');
}

/** Who decided, in words: `asked you: allowed`, `you declined`, `blocked by policy`. */
export function decisionWords(s: Pick<StepRecord, 'risk' | 'decision'>): string | undefined {
  switch (s.decision) {
    case 'allowed':
      return 'you allowed it';
    case 'refused':
      return 'you declined';
    case 'blocked':
      return 'blocked by the safety policy';
    case 'notified':
      return 'you were notified';
    case 'needs-confirmation':
      return 'needed a confirmation no one could give';
    default:
      return s.risk === 'confirm' ? 'allowed for this site earlier' : undefined;
  }
}

/** The first line of a failed step's result without its code: why it failed, for the tree. */
export function failureReason(s: Pick<StepRecord, 'ok' | 'result' | 'errorCode'>, max = 160): string | undefined {
  if (s.ok || !s.result) return undefined;
  const first = s.result.split('\n').find((l) => l.trim()) ?? '';
  const text = s.errorCode && first.startsWith(`${s.errorCode}: `) ? first.slice(s.errorCode.length + 2) : first;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function stepIcon(s: StepRecord): string {
  if (s.decision === 'refused' || s.decision === 'blocked' || s.decision === 'needs-confirmation') return 'circle-slash';
  if (!s.ok) return 'error';
  if (s.risk === 'confirm') return 'shield';
  if (s.risk === 'notify') return 'bell';
  return 'check';
}

/**
 * The step's row label. A failing step leads with why (`3. Failed: no single element matches …`),
 * since at the default sidebar width the description is cut off first; what it did moves there.
 */
export function stepLabel(s: StepRecord): string {
  const what = s.action ?? s.tool;
  if (s.ok) return `${s.step}. ${what}`;
  if (s.decision === 'refused') return `${s.step}. Declined by you: ${what}`;
  if (s.decision === 'blocked') return `${s.step}. Blocked by policy: ${what}`;
  return `${s.step}. Failed: ${failureReason(s) ?? s.errorCode ?? 'error'}`;
}

/** `browser_click · you allowed it · 12 ms`; for a failure, what it was doing (the label says why). */
export function stepDescription(s: StepRecord): string {
  const parts: string[] = [];
  if (!s.ok && s.decision !== 'refused' && s.decision !== 'blocked' && s.action) parts.push(s.action);
  parts.push(s.tool);
  const who = decisionWords(s);
  if (who && s.ok) parts.push(who);
  parts.push(`${s.durationMs} ms`);
  return parts.join(' · ');
}

/** Local date and time with seconds, for the step page. */
export function localTime(iso: string | undefined, tz?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: tz });
}

const RISK_WORDS: Record<string, string> = { auto: 'routine — runs without asking', notify: 'noteworthy — runs and tells you', confirm: 'sensitive — asks you first', block: 'not allowed — never runs' };

const esc = (v: unknown) =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The frame row: in words (main page, frame <origin/path>); the raw CDP id only in its tooltip. */
function frameRow(t: StepRecord['target']): string {
  const words = frameWords(t?.frame);
  if (!words) return '';
  const raw = t?.frameId ?? (isReadableFrame(t?.frame) ? undefined : t?.frame);
  return `<tr><th>Frame</th><td${raw ? ` title="${esc(`frame id ${raw}`)}"` : ''}>${esc(words)}</td></tr>`;
}

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
${row('Tool', s.tool)}${row('When', localTime(s.ts))}${row('Took', `${s.durationMs} ms`)}
${row('Safety', RISK_WORDS[s.risk] ?? s.risk)}${row('Decision', decisionWords(s) ?? 'ran without asking')}${row('Why', s.reason)}${row('Rule', s.rule)}
${row('Result', s.ok ? 'Succeeded' : `Failed: ${failureReason(s, Infinity) ?? s.errorCode ?? 'error'}${s.errorCode ? ` (${s.errorCode})` : ''}`)}
${row('Target', t ? `${t.role ?? '?'} "${t.name ?? ''}"` : undefined)}${row('Selector', t?.selector)}${row('XPath', t?.xpath)}${frameRow(t)}
${row('Before', [s.before.title, s.before.url].filter(Boolean).join(' — '))}${row('After', [s.after.title, s.after.url].filter(Boolean).join(' — '))}
</table>
<h3>Input${s.redacted ? ' (secrets redacted)' : ''}</h3><pre>${esc(JSON.stringify(s.input, null, 2))}</pre>
${s.result ? `<h3>Result</h3><pre>${esc(unfence(s.result))}</pre>` : ''}
${shots ? `<h3>Screenshots</h3>${shots}` : ''}
</body></html>`;
}
