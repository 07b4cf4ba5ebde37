import type { ActionPreview, ElementFacts } from '../contract/types';
import { factTexts, ICON_HINTS } from '../actions/elementFacts';
import { findPhrase } from './patterns';
import type { PolicySettings } from './settings';
import { textForms } from './textFold';

type Target = NonNullable<ActionPreview['target']>;

/** The first phrase of `entries` in any form of `text` (as written, or with its disguise removed). */
export function findInForms(text: string | undefined, entries: readonly string[]): { word: string; disguised: boolean } | undefined {
  const forms = textForms(text);
  for (const [i, form] of forms.entries()) {
    const word = findPhrase(form, entries);
    if (word) return { word, disguised: i > 0 };
  }
  return undefined;
}

/**
 * Why activating the element is consequential, from everything it shows or is called by: its accessible
 * name, its visible text, labels and titles, CSS-drawn text, SVG titles (each also with zero-width
 * characters and look-alike letters removed), its icon words, and a link's target.
 */
export function consequentialTarget(t: Target | undefined, settings: PolicySettings, extraWords: readonly string[] = []): string | undefined {
  if (!t) return undefined;
  const words = extraWords.length ? [...settings.sensitiveTargetPatterns, ...extraWords] : settings.sensitiveTargetPatterns;
  for (const { where, text } of factTexts(t.name, t.facts)) {
    const hit = findInForms(text, words);
    if (hit) return `${where} says "${hit.word}"${hit.disguised ? ' (written with look-alike or invisible characters)' : ''}`;
  }
  const icon = t.facts?.hints?.find((h) => ICON_HINTS.includes(h));
  if (icon) return `its icon says "${icon}" (class, id or image name)`;
  const action = actionUrlWord(t.facts?.href);
  if (action) return `it is a link to an action URL ("${action}")`;
  return undefined;
}

/** For Enter in a field: the form it submits, when one of its submit buttons is consequential. */
export function submittedForm(t: Target | undefined, settings: PolicySettings): { reason: string; strong: boolean } | undefined {
  const form = t?.facts?.submitsForm;
  if (!form) return undefined;
  for (const b of form.buttons) {
    const hit = findInForms(b, settings.sensitiveTargetPatterns);
    if (hit) return { reason: `Enter submits its form, whose button says "${hit.word}"`, strong: true };
  }
  return { reason: 'Enter submits its form', strong: false };
}

/** The chosen options of a select call whose labels or values are consequential ("Delete account"). */
export function consequentialChoice(values: unknown, t: Target | undefined, settings: PolicySettings): string | undefined {
  if (!Array.isArray(values)) return undefined;
  const options = t?.facts?.options ?? [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    // The model may name an option by value ("opt3") whose label says "Delete account", or the other way round.
    const texts = [v, ...options.filter(([value, label]) => value === v || label === v).flatMap(([value, label]) => [label, value])];
    for (const text of texts) {
      const hit = findInForms(text, settings.sensitiveTargetPatterns);
      if (hit) return `the option chosen says "${hit.word}"`;
    }
  }
  return undefined;
}

/** A field's own attributes and labels that say it holds payment data (`name=cardnumber`, placeholder "Card number"). */
export function sensitiveFieldFacts(f: ElementFacts | undefined, settings: PolicySettings): string | undefined {
  if (!f) return undefined;
  const ac = f.autocomplete?.toLowerCase() ?? '';
  if (/\bcc-(number|csc|exp|exp-month|exp-year|name|type)\b/.test(ac)) return 'a payment-card field';
  if (/\b(current-password|new-password)\b/.test(ac)) return 'a password field';
  if (/\bone-time-code\b/.test(ac)) return 'a one-time-code field';
  for (const text of [...(f.labels ?? []), ...(f.fieldAttrs ?? [])]) {
    // `cardnumber`, `card_number`, `cardNumber` are how payment widgets name the field.
    const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
    const hit = findInForms(spaced, settings.sensitiveFieldPatterns) ?? findInForms(text, settings.sensitiveFieldPatterns);
    if (hit) return `a sensitive field ("${hit.word}")`;
  }
  return undefined;
}

/** Whether typed text holds a payment-card number (13–19 digits, spaces or dashes between, Luhn-valid). */
export function looksLikeCardNumber(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  for (const m of text.matchAll(/(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g)) {
    const digits = m[0].replace(/\D/g, '');
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    if (sum % 10 === 0 && !/^(\d)\1+$/.test(digits)) return true;
  }
  return false;
}

/**
 * Words that name an irreversible action when a URL is the action itself: a GET to
 * `/account/delete?confirm=1` deletes as surely as the button that leads there.
 */
export const ACTION_URL_WORDS = ['delete', 'remove', 'destroy', 'erase', 'purge', 'wipe', 'unsubscribe', 'deactivate', 'terminate', 'pay', 'purchase', 'buy', 'transfer', 'withdraw', 'cancel', 'confirm', 'approve', 'send', 'publish'];

/**
 * The action word of a URL that is an action endpoint: the word is a query name or value, or a path segment of a
 * URL with a query, each of at most three words (`/account/delete?confirm=1`, `/delete-account?id=3`,
 * `?action=delete`). A path without arguments (`/shop/pay`) is a page to look at. Words in a
 * longer slug (`/help/how-to-delete-your-account`) are an article about it, not the action.
 */
export function actionUrlWord(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(u.protocol)) return undefined;
  const parts: string[] = [];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  // A path word counts when the URL carries arguments (`/account/delete?confirm=1`): `/shop/pay` alone is a page.
  if (u.search.length > 1) for (const seg of u.pathname.split('/')) parts.push(decode(seg));
  for (const [k, v] of u.searchParams) parts.push(k, v);
  for (const part of parts) {
    const words = part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (!words.length || words.length > 3) continue;
    const hit = words.find((w) => ACTION_URL_WORDS.includes(w) || ACTION_URL_WORDS.includes(w.replace(/e?s$/, '')));
    if (hit) return hit;
  }
  return undefined;
}
