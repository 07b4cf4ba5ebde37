import type { ActionPreview, RiskCategory, PageFacts } from '../contract/types';
import { checkUrl } from './origins';
import { originOf } from '../base/originGlob';
import { findPhrase, findUrlWord } from './patterns';
import { checkSecretOrigins, secretNames, typedSecretValues } from './secretPlacement';
import type { PolicySettings } from './settings';
import type { Rating, RiskLevel } from '../contract/decision';
import { filledChoice } from './fillRules';
import { actionUrlWord, consequentialChoice, consequentialTarget, findInForms, looksLikeCardNumber, sensitiveFieldFacts, submittedForm } from './targetRules';
import { ICON_HINTS } from '../actions/elementFacts';
import { ignore } from '../base/ignore';

function knowsTarget(t: ActionPreview['target']): boolean {
  return !!(t && (t.role || t.name || t.tag || t.inputType || t.type));
}

const ORDER: RiskLevel[] = ['auto', 'notify', 'confirm', 'block'];
const stronger = (a: Rating, b: Rating): Rating => (ORDER.indexOf(b.level) > ORDER.indexOf(a.level) ? b : a);

/** Keys that carry a navigation target in tool inputs (browser_navigate url, browser_tabs open url). */
function destinationOf(input: unknown, preview?: ActionPreview): string | undefined {
  if (preview?.destination) return preview.destination;
  const rec = input as Record<string, unknown> | undefined;
  return typeof rec?.url === 'string' ? rec.url : undefined;
}

function pressesEnter(toolName: string, input: Record<string, unknown>): boolean {
  if (toolName === 'browser_press_key') return typeof input.key === 'string' && /(^|\+)(Enter|NumpadEnter|Return)$/i.test(input.key);
  if (toolName === 'browser_type') return input.submit === true || input.pressEnter === true;
  return false;
}

/** Space activates a focused button, link-like control, checkbox or switch as Enter does. */
function pressesSpace(toolName: string, input: Record<string, unknown>): boolean {
  return toolName === 'browser_press_key' && typeof input.key === 'string' && /(^|\+)(Space|Spacebar| )$/i.test(input.key);
}

function activates(toolName: string, input: Record<string, unknown>): boolean {
  return toolName === 'browser_click' || pressesEnter(toolName, input) || pressesSpace(toolName, input) || (toolName === 'browser_handle_dialog' && input.accept === true);
}

function typesText(toolName: string, input: Record<string, unknown>): boolean {
  return toolName === 'browser_type' || toolName === 'browser_fill_form' || (toolName !== 'browser_press_key' && typeof input.text === 'string');
}

/** Every typed string of a call (text, fill_form values). */
function typedStrings(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof input.text === 'string') out.push(input.text);
  if (Array.isArray(input.fields)) for (const f of input.fields as { value?: unknown }[]) if (typeof f?.value === 'string') out.push(f.value);
  return out;
}

/** Is this element a password, payment-card or one-time-code field? Returns what gave it away. */
export function sensitiveField(preview: ActionPreview | undefined, settings: PolicySettings): string | undefined {
  const t = preview?.target;
  if (preview?.secret) return 'a secret value';
  if (!t) return undefined;
  if ((t.inputType ?? t.type)?.toLowerCase() === 'password') return 'a password field';
  const ac = t.autocomplete?.toLowerCase() ?? '';
  if (/\b(current-password|new-password)\b/.test(ac)) return 'a password field';
  if (/\bcc-(number|csc|exp|exp-month|exp-year|name|type)\b/.test(ac)) return 'a payment-card field';
  if (/\bone-time-code\b/.test(ac)) return 'a one-time-code field';
  const hit = findInForms(t.name, settings.sensitiveFieldPatterns);
  return hit ? `a sensitive field ("${hit.word}")` : sensitiveFieldFacts(t.facts, settings);
}

/** Why a target is consequential to activate (submit/pay/delete…), or undefined. */
export function sensitiveTarget(preview: ActionPreview | undefined, settings: PolicySettings): string | undefined {
  const t = preview?.target;
  if (!t) return undefined;
  const said = consequentialTarget(t, settings);
  if (said) return said;
  const type = (t.type ?? t.inputType ?? t.facts?.type)?.toLowerCase();
  if (type === 'submit' || type === 'image') return 'it submits a form (type=submit)';
  // A <button> without a type inside a form submits it.
  if ((t.inForm ?? t.facts?.inForm) && (t.tag ?? t.facts?.tag)?.toLowerCase() === 'button' && !type) return 'it is a button inside a form (submits it)';
  // A label clicks its control.
  const c = t.facts?.control;
  if (c && (/^(submit|image)$/i.test(c.type ?? '') || (c.inForm && c.tag === 'button' && !c.type))) return 'it is the label of a button that submits a form';
  return undefined;
}

/** Why the page is sensitive (URL words, title, page text), or undefined. */
export function sensitivePage(preview: ActionPreview | undefined, page: PageFacts | undefined, settings: PolicySettings): string | undefined {
  const urlWord = findUrlWord(preview?.url, settings.sensitiveUrlPatterns);
  if (urlWord) return `the page URL mentions "${urlWord}"`;
  const titleWord = findPhrase(preview?.title, settings.sensitiveTextPatterns);
  if (titleWord) return `the page title says "${titleWord}"`;
  const textWord = findInForms(page?.text, settings.sensitiveTextPatterns);
  if (textWord) return `the page says "${textWord.word}"`;
  // A JavaScript dialog's own words (the page text cannot be read while it is open).
  const dialogWord = preview?.target?.role === 'dialog' ? findInForms(preview.target.name, settings.sensitiveTextPatterns) : undefined;
  if (dialogWord) return `the dialog says "${dialogWord.word}"`;
  // The element's own frame (a payment iframe of another origin on a harmless page): its URL and its text.
  const facts = preview?.target?.facts;
  const frame = facts?.inFrame ? facts.frameUrl : undefined;
  const frameWord = findUrlWord(frame, settings.sensitiveUrlPatterns);
  if (frameWord) return `the frame it is in (${originOf(frame) ?? frame}) mentions "${frameWord}"`;
  const frameText = facts?.inFrame ? findInForms(facts.frameText, settings.sensitiveTextPatterns) : undefined;
  if (frameText) return `the frame it is in (${originOf(frame) ?? frame}) says "${frameText.word}"`;
  return undefined;
}

function executableName(url: string | undefined, settings: PolicySettings): string | undefined {
  if (!url) return undefined;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch (e) {
    ignore(e, 'a bare file name');
  }
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext && settings.executableExtensions.includes(ext) ? path.split('/').pop() : undefined;
}

/**
 * Rates one tool call: pure, from the tool, its input, the side-effect-free preview and page facts.
 * The strongest rule wins; block rules are checked first.
 */
export function ratePolicy(toolName: string, risk: RiskCategory, input: unknown, preview: ActionPreview | undefined, settings: PolicySettings, page?: PageFacts): Rating {
  const args = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  // Without a described target, the call acts on the focused element.
  if (page?.focused && !knowsTarget(preview?.target)) {
    preview = { ...(preview ?? { message: toolName }), target: { ...preview?.target, ...page.focused } };
    if (page.focusedFrameUrl) page = { ...page, frameUrl: page.focusedFrameUrl };
  }

  // 1. Where it goes: dangerous schemes and origin lists, before navigating.
  const dest = destinationOf(args, preview);
  if (dest) {
    const v = checkUrl(dest, settings);
    if (!v.allowed) return { level: 'block', rule: v.rule, reason: v.rule === 'scheme' ? `Navigation to ${v.reason}` : `Navigation to ${dest} is not allowed: ${v.reason}` };
  }

  // 2. Where it acts: the page and the frame receiving the action (history, tabs and closing stay possible to get away).
  const actsOnPage = risk !== 'navigate' && risk !== 'session';
  if (actsOnPage) {
    for (const [what, url] of [['The page', preview?.url], ['The frame', frameUrl(preview) ?? page?.frameUrl]] as const) {
      if (!url) continue;
      const v = checkUrl(url, settings);
      if (!v.allowed) return { level: 'block', rule: v.rule, reason: `${what} ${url} is not allowed: ${v.reason}` };
    }
  }

  // 2b. Secrets: a placeholder only in a typed value, and only on the origins its secret is bound to.
  const secrets = typedSecretValues(toolName, args);
  if (secrets.misplaced.length) {
    return { level: 'block', rule: 'secret-placement', reason: `a {{secret:NAME}} placeholder may only be typed into a field, not used in "${secrets.misplaced.join('", "')}"; nothing was sent` };
  }
  let secretUnbound: string[] = [];
  let secretsBound = false;
  if (secrets.typed.length) {
    const check = checkSecretOrigins(secretNames(args), [preview?.url, frameUrl(preview) ?? page?.frameUrl], settings.secretOrigins);
    const w = check.wrongOrigin[0];
    if (w) return { level: 'block', rule: 'secret-origin', reason: `the secret ${w.name} is bound to ${w.origins.join(', ')}, not to ${originOf(w.url) ?? w.url}` };
    secretUnbound = check.unbound;
    secretsBound = !check.unbound.length && !!preview?.url;
  }

  let rating: Rating = { level: 'auto' };

  // 3. Tools that always ask.
  if (settings.alwaysConfirmTools.includes(toolName)) {
    rating = stronger(rating, { level: 'confirm', rule: `always-confirm:${toolName}`, reason: `${toolName} is always confirmed: it ${toolName === 'browser_evaluate' ? 'runs arbitrary JavaScript in the page' : toolName === 'browser_upload_file' ? 'sends local files to the website' : 'is listed in browserAgent.safety.alwaysConfirmTools'}` });
  }

  // 4. Downloads of executables (a link or navigation straight to one).
  const exe = executableName(dest, settings) ?? executableName((preview?.target as { href?: string } | undefined)?.href, settings);
  if (exe) rating = stronger(rating, { level: 'confirm', rule: 'executable-download', reason: `It would download the executable file "${exe}"` });

  if (risk === 'input') {
    // 5. Typing into password, payment-card and one-time-code fields.
    // A secret typed on the origin it is bound to is what the binding permits: no question.
    if (typesText(toolName, args) && !secretsBound) {
      const field = secretUnbound.length
        ? `a field, with the secret ${secretUnbound.join(', ')} (not bound to an origin; bind it with browserAgent.safety.secretOrigins / --secret-origins)`
        : (sensitiveField(preview, settings) ?? (typedStrings(args).some(looksLikeCardNumber) ? 'a field, and the text is a payment-card number' : undefined));
      if (field) rating = stronger(rating, { level: settings.sensitiveFieldInput, rule: 'sensitive-field', reason: `It types into ${field}; the value is never logged` });
    }
    // 6. Activating submit/pay/delete… targets: confirm on sensitive pages, notify elsewhere.
    // Enter in a one-line field submits its form: consequential when its button is, or on a sensitive page.
    const implicit = pressesEnter(toolName, args) && !sensitiveTarget(preview, settings) ? submittedForm(preview?.target, settings) : undefined;
    const choice = toolName === 'browser_select_option' ? consequentialChoice(args.values, preview?.target, settings) : toolName === 'browser_fill_form' ? filledChoice(preview, settings) : undefined;
    const drop = toolName === 'browser_drag' ? consequentialTarget(preview?.dropTarget, settings, ICON_HINTS) : undefined;
    if (implicit && !implicit.strong) {
      const pageWhy = sensitivePage(preview, page, settings);
      if (pageWhy) rating = stronger(rating, { level: settings.sensitiveTargetOnSensitivePage, rule: 'sensitive-target-on-sensitive-page', reason: `${implicit.reason} and the page is sensitive (${pageWhy})` });
    }
    if (activates(toolName, args) || (implicit && implicit.strong) || choice || drop) {
      const target = (implicit?.strong ? implicit.reason : undefined) ?? choice ?? (drop ? `it drops onto an element whose ${drop.replace(/^its /, '')}` : undefined) ?? sensitiveTarget(preview, settings);
      if (target) {
        const pageWhy = sensitivePage(preview, page, settings);
        rating = stronger(
          rating,
          pageWhy
            ? { level: settings.sensitiveTargetOnSensitivePage, rule: 'sensitive-target-on-sensitive-page', reason: `The element is consequential (${target}) and the page is sensitive (${pageWhy})` }
            : { level: settings.sensitiveTargetElsewhere, rule: 'sensitive-target', reason: `The element is consequential (${target})` },
        );
      }
    }
  }

  // 7. A URL that is the action itself (`/account/delete?confirm=1`) is asked about like the button leading there.
  const action = risk === 'navigate' && dest ? actionUrlWord(dest) : undefined;
  if (action) rating = stronger(rating, { level: settings.sensitiveTargetOnSensitivePage, rule: 'consequential-url', reason: `The destination URL is an action ("${action}"): opening it may do what a button named so would` });

  // 8. Going to a sensitive page is worth telling.
  if (risk === 'navigate' && dest && rating.level === 'auto') {
    const why = findUrlWord(dest, settings.sensitiveUrlPatterns);
    if (why) rating = { level: 'notify', rule: 'sensitive-url', reason: `The destination URL mentions "${why}"` };
  }
  return rating;
}

/** The frame URL when the target lives in a frame (`target.frame` carries the frame's URL when known). */
function frameUrl(preview: ActionPreview | undefined): string | undefined {
  const f = preview?.target?.frame;
  return f && /^[a-z][a-z0-9+.-]*:/i.test(f) ? f : undefined;
}

/** Short page label for messages: origin (or the URL for non-network pages). */
export function pageLabel(url: string | undefined): string {
  return originOf(url) ?? url ?? 'the current page';
}
