import { stringify } from 'yaml';
import type { LoadedTask } from './reader';
import { REDACTED, SECRET_PLACEHOLDER, type StepRecord } from './types';
import type { TargetFingerprint } from '../contract/types';
import { ignore } from '../base/ignore';

/** Tools that only look: they say nothing about how the task is done. */
const OBSERVE = /^browser_(snapshot|find|element_details|screenshot|wait|skills_search|tabs)$/;

/** A page-derived string as a short, single-line quote (a skill is read by a model later). */
function quote(s: string | undefined, max = 80): string {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return `"${(t.length > max ? `${t.slice(0, max)}…` : t).replace(/"/g, "'")}"`;
}

function what(t: TargetFingerprint | undefined): string {
  if (!t?.role && !t?.name) return 'the element';
  return `the ${t.role ?? 'element'}${t.name ? ` ${quote(t.name)}` : ''}`;
}

function secretName(t: TargetFingerprint | undefined): string {
  const base = (t?.name || t?.role || 'VALUE').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'VALUE';
  return /^[A-Z_]/.test(base) ? base : `S_${base}`;
}

/** Typed text as the skill shows it: secrets become `{{secret:NAME}}` placeholders, never values. */
function typed(v: unknown, t: TargetFingerprint | undefined, redacted: boolean | undefined): string {
  if (typeof v !== 'string') return '"…"';
  if (v === REDACTED || (redacted && v.includes(REDACTED))) return `{{secret:${secretName(t)}}}`;
  if (v.replace(SECRET_PLACEHOLDER, '').trim() === '') return v.trim();
  return quote(v, 200);
}

/** Where a navigation went, without query or fragment (they carry session ids and tokens). */
function place(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** One recorded step in words, targets by role and name (refs and selectors do not survive). */
export function stepInWords(s: StepRecord): string | undefined {
  const i = (s.input ?? {}) as Record<string, any>;
  switch (s.tool) {
    case 'browser_navigate':
      return typeof i.url === 'string' ? `Open ${place(s.after?.url ?? i.url)}` : undefined;
    case 'browser_navigate_back':
      return 'Go back to the previous page';
    case 'browser_navigate_forward':
      return 'Go forward';
    case 'browser_reload':
      return 'Reload the page';
    case 'browser_click':
      return `${i.doubleClick ? 'Double-click' : 'Click'} ${what(s.target)}`;
    case 'browser_hover':
      return `Hover over ${what(s.target)}`;
    case 'browser_type':
      return `Type ${typed(i.text, s.target, s.redacted)} into ${what(s.target)}${i.submit ? ' and submit' : ''}`;
    case 'browser_select_option':
      return `Choose ${(Array.isArray(i.values) ? i.values : []).map((v: unknown) => quote(String(v))).join(', ')} in ${what(s.target)}`;
    case 'browser_press_key':
      return `Press ${String(i.key ?? '').slice(0, 40)}`;
    case 'browser_scroll':
      return 'Scroll to find the next part of the page';
    case 'browser_extract':
      return 'Extract the page content that answers the task';
    default:
      return s.action ? s.action.replace(/\s+/g, ' ').slice(0, 200).replace(REDACTED, '{{secret:VALUE}}') : undefined;
  }
}

/** `github.com`, `127.0.0.1:4711`: the sites a run acted on, in order of first use. */
function sitesOf(steps: StepRecord[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    for (const url of [s.before?.url, s.after?.url]) {
      try {
        const u = new URL(url ?? '');
        if (/^https?:$/.test(u.protocol) && !out.includes(u.host)) out.push(u.host);
      } catch (e) {
        ignore(e, 'about:blank and the like name no site');
      }
    }
  }
  return out;
}

/**
 * A skill's name and folder, as VS Code's skill validation wants them: 1–64 lowercase ASCII letters, digits and
 * single hyphens, not at either end (`Résumé für Zoë!` → `resume-fur-zoe`).
 */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug || 'skill';
}

/**
 * A SKILL.md drafted from a successful recorded task, for a person to review: the steps that
 * changed something, in words, targets by role and name; secrets as placeholders; the tools it
 * used as a commented-out allowed-tools line (opt in to narrow later runs).
 */
export function draftSkill(task: LoadedTask): { slug: string; text: string } {
  const goal = (task.start?.goal ?? 'Recorded task').replace(/\s+/g, ' ').trim();
  const done = task.steps.filter((s) => s.ok && (s.decision === 'auto' || s.decision === 'notified' || s.decision === 'allowed'));
  const lines: string[] = [];
  for (const s of done) {
    if (OBSERVE.test(s.tool)) continue;
    const w = stepInWords(s);
    if (w && lines.at(-1) !== w) lines.push(w);
  }
  if (!lines.length) throw new Error('the task has no successful steps that change the page, so there is nothing to write down');
  const confirmed = done.filter((s) => s.decision === 'allowed').map((s) => `${stepInWords(s) ?? s.tool} asked for confirmation${s.reason ? ` (${s.reason})` : ''}.`);
  const tools = [...new Set(['browser_snapshot', ...done.map((s) => s.tool)])];
  const slug = slugOf(goal);
  // Our fields go under `metadata` as strings, the Agent Skills format's place for them, so VS Code's skill
  // validation finds nothing to flag; the name is the folder's (its rule); the goal in words starts the description.
  const metadata: Record<string, string> = {};
  const sites = sitesOf(task.steps);
  if (sites.length) metadata.sites = sites.join(', ');
  if (confirmed.length) metadata.risk = confirmed.join(' ');
  const front: Record<string, unknown> = {
    name: slug,
    description: `${goal}${task.end?.summary ? ` — ${task.end.summary.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
  };
  if (sites.length || confirmed.length) front.metadata = metadata;
  const yaml = stringify(front, { lineWidth: 0 }).trimEnd();
  const toolsLine = `allowed-tools: ${tools.join(' ')}`;
  const text = [
    '---',
    `# Drafted by Browser Agent from the recorded task ${task.id}${task.start?.ts ? ` of ${task.start.ts}` : ''}.`,
    '# Review the steps, replace values that were specific to that run, and uncomment allowed-tools',
    '# to limit the tools on these sites to the ones the run used.',
    yaml,
    front.metadata ? `  # ${toolsLine}` : `# metadata:\n#   ${toolsLine}`,
    '---',
    ...lines.map((l, n) => `${n + 1}. ${l}.`),
    '',
  ].join('\n');
  return { slug, text };
}
