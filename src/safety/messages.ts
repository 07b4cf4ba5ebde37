import type { ActionPreview } from '../contract/types';
import type { ConfirmRequest } from './decider';
import { originOf } from '../base/originGlob';
import { displayText, quotePageText } from './textFold';

/**
 * `button «Pay now» [12]` from a preview's target: page text in «» quotes (it cannot close them), the
 * visible text too when the page names the element otherwise (`button «Cancel» showing «Delete account»`),
 * and the frame's origin when the element lives in a frame of another page.
 */
export function describeElement(preview: ActionPreview | undefined): string | undefined {
  const t = preview?.target;
  if (!t) return undefined;
  const name = t.name ? ` ${quotePageText(t.name, 80)}` : '';
  const kind = t.role ?? t.tag ?? 'element';
  const visible = t.facts?.visible;
  const shows = visible && displayText(visible, 80) !== displayText(t.name ?? '', 80) ? ` showing ${quotePageText(visible, 80)}` : '';
  const frame = t.facts?.inFrame && t.facts.frameUrl ? ` in a frame of ${originOf(t.facts.frameUrl) ?? quotePageText(t.facts.frameUrl, 120)}` : '';
  return `${kind}${name}${shows}${t.ref ? ` [${t.ref}]` : ''}${frame}`;
}

/**
 * One wording for every place a person is asked (VS Code modal, Copilot confirmation, MCP
 * elicitation): what will happen, on which element and page, and which rule fired.
 */
export function confirmationText(req: ConfirmRequest): { title: string; lines: string[] } {
  const what = req.preview?.message ?? `${req.toolTitle} (${req.tool})`;
  const lines = [`Action: ${what} (${req.tool})`];
  const el = describeElement(req.preview);
  if (el) lines.push(`Element: ${el}`);
  if (req.origin || req.pageTitle) lines.push(`Page: ${[req.pageTitle ? quotePageText(req.pageTitle) : undefined, req.origin].filter(Boolean).join(' — ')}`);
  if (req.rating.reason) lines.push(`Why: ${req.rating.reason}`);
  if (req.rating.rule) lines.push(`Rule: ${req.rating.rule}`);
  if (req.preview?.inScript) lines.push(...scriptLines(req.preview.inScript));
  return { title: `Browser Agent wants to: ${what}`, lines };
}

const SCRIPT_LINES_SHOWN = 40;

/**
 * A call made by a browser_run_script script: which call it is, and the script with that line marked (`→`), so
 * the person sees what the loop is doing, not only this one step. A long script is shown around the line.
 */
export function scriptLines(at: NonNullable<ActionPreview['inScript']>): string[] {
  const all = at.script.split('\n');
  const mark = at.line && at.line <= all.length ? at.line : undefined;
  const from = mark ? Math.max(0, Math.min(mark - 1 - SCRIPT_LINES_SHOWN / 2, all.length - SCRIPT_LINES_SHOWN)) : 0;
  const shown = all.slice(from, from + SCRIPT_LINES_SHOWN).map((l, k) => `${from + k + 1 === mark ? '→' : ' '} ${String(from + k + 1).padStart(3)}  ${l.length > 160 ? `${l.slice(0, 159)}…` : l}`);
  return [
    `In a script: call ${at.call} (browser.${at.fn}${mark ? `, line ${mark}` : ''}); each call of the script is asked about on its own.`,
    'Script:',
    ...(from > 0 ? [`      … ${from} lines above`] : []),
    ...shown,
    ...(from + SCRIPT_LINES_SHOWN < all.length ? [`      … ${all.length - from - SCRIPT_LINES_SHOWN} more lines`] : []),
  ];
}
