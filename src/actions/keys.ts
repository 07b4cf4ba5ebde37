import { BrowserAgentError } from '../base/errors';

export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  location?: number;
}

const NAMED: Record<string, KeyDef> = {};
function add(key: string, code: string, keyCode: number, text?: string, location?: number) {
  NAMED[key.toLowerCase()] = { key, code, keyCode, text, location };
}
add('Enter', 'Enter', 13, '\r');
add('Tab', 'Tab', 9);
add('Backspace', 'Backspace', 8);
add('Delete', 'Delete', 46);
add('Escape', 'Escape', 27);
add(' ', 'Space', 32, ' ');
add('ArrowUp', 'ArrowUp', 38);
add('ArrowDown', 'ArrowDown', 40);
add('ArrowLeft', 'ArrowLeft', 37);
add('ArrowRight', 'ArrowRight', 39);
add('Home', 'Home', 36);
add('End', 'End', 35);
add('PageUp', 'PageUp', 33);
add('PageDown', 'PageDown', 34);
add('Insert', 'Insert', 45);
add('Shift', 'ShiftLeft', 16, undefined, 1);
add('Control', 'ControlLeft', 17, undefined, 1);
add('Alt', 'AltLeft', 18, undefined, 1);
add('Meta', 'MetaLeft', 91, undefined, 1);
add('CapsLock', 'CapsLock', 20);
add('ContextMenu', 'ContextMenu', 93);
for (let i = 1; i <= 12; i++) add(`F${i}`, `F${i}`, 111 + i);

const ALIASES: Record<string, string> = {
  esc: 'escape', return: 'enter', space: ' ', spacebar: ' ', ctrl: 'control', cmd: 'meta', command: 'meta',
  option: 'alt', del: 'delete', up: 'arrowup', down: 'arrowdown', left: 'arrowleft', right: 'arrowright',
  pgup: 'pageup', pgdn: 'pagedown', win: 'meta', super: 'meta',
};

const SHIFTED_DIGITS = ')!@#$%^&*(';
const PUNCT: Record<string, [string, number]> = {
  '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221], '\\': ['Backslash', 220],
  ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188], '.': ['Period', 190], '/': ['Slash', 191], '`': ['Backquote', 192],
};

/** The definition of one key by name (`Enter`, `ArrowDown`, `a`, `A`, `7`, `/`). */
export function keyDef(name: string): KeyDef {
  const lower = name.toLowerCase();
  const named = NAMED[ALIASES[lower] ?? lower];
  if (named && (name.length > 1 || name === ' ')) return named;
  if ([...name].length === 1) {
    const ch = name;
    if (/[a-z]/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
    if (/[0-9]/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
    const digit = SHIFTED_DIGITS.indexOf(ch);
    if (digit >= 0) return { key: ch, code: `Digit${digit}`, keyCode: 48 + digit, text: ch };
    const p = PUNCT[ch];
    if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch };
    return { key: ch, code: '', keyCode: 0, text: ch };
  }
  throw new BrowserAgentError('INVALID_INPUT', `Unknown key "${name}".`, 'Use names like Enter, Tab, Escape, Backspace, ArrowDown, PageDown, Home, F5, a single character, or a combination like Control+A or Shift+Tab.');
}

export const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** `Control+Shift+K` → modifiers and the main key. `+` alone or at the end is the plus key. */
export function parseCombo(combo: string): { modifiers: KeyDef[]; key: KeyDef } {
  const trimmed = combo.trim();
  if (!trimmed) throw new BrowserAgentError('INVALID_INPUT', 'Empty key.', 'Give a key such as Enter or Control+A.');
  const parts = trimmed === '+' ? ['+'] : trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), '+'] : trimmed.split('+');
  const defs = parts.map((p) => keyDef(p.trim() || p));
  const key = defs.pop()!;
  for (const m of defs) {
    if (!(m.key in MODIFIER_BITS)) throw new BrowserAgentError('INVALID_INPUT', `"${m.key}" in "${combo}" is not a modifier.`, 'Only Control, Shift, Alt and Meta can be combined, e.g. Control+Shift+K.');
  }
  return { modifiers: defs, key };
}
