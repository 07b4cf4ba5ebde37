/**
 * Page text in the spellings a hostile page uses to slip a word past a phrase list while a person still
 * reads it: zero-width and other invisible format characters inside the word ("De\u200Blete"),
 * look-alike letters from other scripts (Cyrillic "е" in "Dеlete", Greek "Ρay"), compatibility forms
 * (fullwidth "Ｄｅｌｅｔｅ", mathematical bold "𝐃𝐞𝐥𝐞𝐭𝐞"), combining marks ("Dél̈ete") and letters spaced
 * out ("D e l e t e"). The policy matches every form: the raw text keeps non-Latin phrases ("удалить")
 * matching, the folded one catches the disguises.
 */

// Letters that look like Latin ones (Unicode's confusables for the Latin alphabet, the common ones).
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', і: 'i', ї: 'i', ј: 'j',
  ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ү: 'y', ґ: 'r', г: 'r', п: 'n', ь: 'b', ш: 'w',
  А: 'A', В: 'B', Е: 'E', Ё: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W', Һ: 'H', Ӏ: 'I',
  // Greek
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', τ: 't', υ: 'u', ι: 'i', κ: 'k', χ: 'x', ε: 'e', η: 'n', ω: 'w', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Latin look-alikes outside ASCII
  ı: 'i', ł: 'l', ƚ: 'l', ɩ: 'i', ℓ: 'l', ſ: 's', ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ħ: 'h',
};
const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');

/** Invisible format characters (zero-width space/joiners, soft hyphen, bidi controls, BOM, word joiner…). */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0\u180E]/gu;

/** Runs of single letters with a space, dot, dash or underscore between them: "D e l e t e", "P-a-y", "删 除". */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?:[\s._·-]{1,3}\p{L}(?![\p{L}\p{N}])){1,}/gu;

/** The disguise-free spelling: invisible characters and marks removed, look-alikes mapped to Latin. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(INVISIBLE, '')
    .replace(/\p{M}/gu, '')
    .replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] ?? c)
    .normalize('NFKC')
    .replace(SPACED, (run) => run.replace(/[\s._·-]+/g, ''));
}

/** The forms of `text` a phrase list is matched against: as written, and folded when that differs. */
export function textForms(text: string | undefined): string[] {
  if (!text) return [];
  const folded = foldText(text);
  return folded === text ? [text] : [text, folded];
}

/**
 * Page text made safe to show to a person on one line of a dialog: no control, bidi or other invisible
 * characters (a U+202E override would make "eteled" read as "deleted"), no line breaks (a name cannot add
 * a "Why:" line of its own), runs of spaces collapsed, cut to `max` characters.
 */
export function displayText(text: string, max = 120): string {
  const clean = text
    .replace(/[\r\n\u2028\u2029\v\f\t]+/g, ' ')
    .replace(INVISIBLE, '')
    .replace(/[\p{Cc}]/gu, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * Page text quoted for a person: `«…»`, with quote marks inside turned into single guillemets so the
 * text cannot close its quote and continue as if it were ours.
 */
export function quotePageText(text: string, max = 120): string {
  return `«${displayText(text, max).replace(/«/g, '‹').replace(/»/g, '›')}»`;
}
