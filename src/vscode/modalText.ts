import type { ConfirmRequest } from '../safety/decider';
import { describeElement, scriptLines } from '../safety/messages';
import { quotePageText } from '../safety/textFold';

/**
 * What the VS Code modal shows: one plain question as the title, the facts a person needs below it
 * (element, page, why), and a script once, as code. Rule ids stay out: they go to the log and audit.
 */

/** Present-tense verbs of tool previews ("Clicking", "Typing and submitting") → the infinitive. */
const INFINITIVE: Record<string, string> = {
  clicking: 'click', 'double-clicking': 'double-click', 'right-clicking': 'right-click', typing: 'type', submitting: 'submit',
  opening: 'open', going: 'go', running: 'run', uploading: 'upload', filling: 'fill', dragging: 'drag', pressing: 'press',
  selecting: 'select', accepting: 'accept', dismissing: 'dismiss', hovering: 'hover', closing: 'close', switching: 'switch',
  reloading: 'reload', scrolling: 'scroll', taking: 'take', reading: 'read', searching: 'search', extracting: 'extract',
  listing: 'list', waiting: 'wait', downloading: 'download', checking: 'check', unchecking: 'uncheck',
};

function infinitive(sentence: string): string {
  // "type textbox X" is not English: one types into a field (and then submits).
  const typed = /^Typing( and submitting)?(?: into)? (.+?)( on \S+)?$/i.exec(sentence);
  if (typed) return `type into ${typed[2]}${typed[1] ? ' and submit' : ''}${typed[3] ?? ''}`;
  return sentence.replace(/^([\w-]+)(\s+and\s+)?([\w-]+)?/i, (all, first: string, and?: string, second?: string) => {
    const a = INFINITIVE[first.toLowerCase()];
    if (!a) return `${first.charAt(0).toLowerCase()}${first.slice(1)}${all.slice(first.length)}`;
    const b = and && second ? INFINITIVE[second.toLowerCase()] : undefined;
    return b ? `${a}${and}${b}` : `${a}${all.slice(first.length)}`;
  });
}

/** `127.0.0.1:18765` from an origin or URL; the input itself when it does not parse. */
export function siteOf(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}

// Capitalised unless it starts with an identifier (browser_evaluate stays as written).
const sentence = (s: string) => (/^\w+_/.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1)).replace(/([^.!?])$/, '$1.');

export interface ModalText {
  /** One plain question naming the action and the site. */
  title: string;
  /** Plain-text body (VS Code modals do not render markdown). */
  detail: string;
  /** The label of the "allow for this site" button, naming the site; undefined without a site. */
  allowSite?: string;
}

export function modalText(req: ConfirmRequest): ModalText {
  const site = siteOf(req.origin);
  const code = req.preview?.code;
  // The preview's sentence ends with "on <host>" already for most tools; the script goes below, not in the title.
  let what = req.preview?.message ?? req.toolTitle;
  if (code) what = what.replace(/:\s[\s\S]*$/, '');
  what = infinitive(what.trim());
  if (site && !what.includes(site)) what = `${what} on ${site}`;
  const lines: string[] = [];
  const el = describeElement(req.preview);
  if (el) lines.push(`Element: ${el}`);
  if (req.pageTitle || req.preview?.url) lines.push(`Page: ${[req.pageTitle ? quotePageText(req.pageTitle) : undefined, req.preview?.url ?? req.origin].filter(Boolean).join(' — ')}`);
  if (req.rating.reason) lines.push(`Why we ask: ${sentence(req.rating.reason)}`);
  if (code) lines.push('', 'Script:', ...code.split('\n').map((l) => `    ${l}`));
  // A call a browser_run_script script makes: the script, with this call's line marked.
  if (req.preview?.inScript) lines.push('', ...scriptLines(req.preview.inScript));
  lines.push('', `Tool: ${req.tool}. Don't Allow, Cancel or Escape refuses; the model is told you declined.`);
  return {
    title: `Allow Browser Agent to ${what}?`,
    detail: lines.join('\n'),
    allowSite: site ? `Allow on ${site} for This Session` : undefined,
  };
}
