import type { ActionPreview } from '../tools/types';
import type { ConfirmRequest } from './decider';

/** `button "Pay now"` from a preview's target. */
export function describeElement(preview: ActionPreview | undefined): string | undefined {
  const t = preview?.target;
  if (!t) return undefined;
  const name = t.name ? ` "${t.name.length > 80 ? `${t.name.slice(0, 77)}…` : t.name}"` : '';
  const kind = t.role ?? t.tag ?? 'element';
  return `${kind}${name}${t.ref ? ` [${t.ref}]` : ''}`;
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
  if (req.origin || req.pageTitle) lines.push(`Page: ${[req.pageTitle ? `"${req.pageTitle}"` : undefined, req.origin].filter(Boolean).join(' — ')}`);
  if (req.rating.reason) lines.push(`Why: ${req.rating.reason}`);
  if (req.rating.rule) lines.push(`Rule: ${req.rating.rule}`);
  return { title: `Browser Agent wants to: ${what}`, lines };
}
