import type { Protocol } from 'devtools-protocol';
import { sleep } from '../session/launcher';
import type { CdpSession } from '../session/cdp';
import type { Point } from './element';
import { MODIFIER_BITS, parseCombo, keyDef, type KeyDef } from './keys';
import { isAgentError } from '../base/errors';
import { ignore } from '../base/ignore';

export type MouseButton = 'left' | 'right' | 'middle';
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

export function modifierMask(mods: readonly string[] = []): number {
  return mods.reduce((m, k) => m | (MODIFIER_BITS[k] ?? 0), 0);
}

const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

/** Real mouse input sent to the top page; the browser routes it to whatever frame is under the point. */
export async function mouseClick(
  page: CdpSession,
  at: Point,
  opts: { button?: MouseButton; clickCount?: number; modifiers?: readonly string[]; holdMs?: number } = {},
): Promise<void> {
  const button = opts.button ?? 'left';
  const modifiers = modifierMask(opts.modifiers);
  const count = Math.max(1, opts.clickCount ?? 1);
  await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y, modifiers });
  for (let i = 1; i <= count; i++) {
    await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: at.x, y: at.y, button, buttons: BUTTON_BITS[button], clickCount: i, modifiers });
    if (opts.holdMs) await sleep(opts.holdMs);
    const release = page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: at.x, y: at.y, button, buttons: 0, clickCount: i, modifiers });
    // The last release may close its own page (a Done button that calls window.close()): Chrome can drop the
    // page before it answers. The click was made; the result names the closed tab, as when it closes a moment later.
    if (i === count) await release.catch((e) => (isAgentError(e, 'TAB_CLOSED') ? ignore(e, 'the click closed its own page') : Promise.reject(e)));
    else await release;
  }
}

export async function mouseMove(page: CdpSession, at: Point, buttons = 0): Promise<void> {
  await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y, buttons, button: buttons ? 'left' : 'none' });
}

export async function mouseWheel(page: CdpSession, at: Point, deltaX: number, deltaY: number): Promise<void> {
  await page.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: at.x, y: at.y, deltaX, deltaY });
}

async function keyEvent(page: CdpSession, type: 'keyDown' | 'keyUp', def: KeyDef, modifiers: number, text?: string, unmodified?: string) {
  const params: Protocol.Input.DispatchKeyEventRequest = {
    type: type === 'keyDown' && (text || unmodified) ? 'keyDown' : type === 'keyDown' ? 'rawKeyDown' : 'keyUp',
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    modifiers,
    location: def.location,
  };
  if (type === 'keyDown' && text) {
    params.text = text;
    params.unmodifiedText = text;
  } else if (type === 'keyDown' && unmodified) {
    // Blink matches access keys (Alt+S) on the key's unmodified text; it types nothing.
    params.text = '';
    params.unmodifiedText = unmodified;
  }
  await page.send('Input.dispatchKeyEvent', params);
}

/** Presses a key or combination (`Enter`, `Control+A`, `Shift+Tab`) like a keyboard does. */
export async function pressKey(page: CdpSession, combo: string): Promise<void> {
  const { modifiers, key } = parseCombo(combo);
  let mask = 0;
  for (const m of modifiers) {
    mask |= MODIFIER_BITS[m.key];
    await keyEvent(page, 'keyDown', m, mask);
  }
  // With Control/Alt/Meta held a key produces no text (it is a shortcut), as on a real keyboard.
  const producesText = key.text && !(mask & (MODIFIER_BITS.Control | MODIFIER_BITS.Alt | MODIFIER_BITS.Meta));
  const text = producesText ? (mask & MODIFIER_BITS.Shift && key.text!.length === 1 ? key.text!.toUpperCase() : key.text) : undefined;
  const accessKey = !text && mask & MODIFIER_BITS.Alt && key.text?.length === 1 ? key.text : undefined;
  await keyEvent(page, 'keyDown', key, mask, text, accessKey);
  await keyEvent(page, 'keyUp', key, mask);
  for (const m of modifiers.reverse()) {
    mask &= ~MODIFIER_BITS[m.key];
    await keyEvent(page, 'keyUp', m, mask);
  }
}

/**
 * Types text. Fast path: one `Input.insertText` (fires beforeinput/input like an IME commit).
 * `keystrokes`: one key event per character, for widgets that listen to keydown/keyup.
 */
export async function typeText(page: CdpSession, text: string, keystrokes = false, editable = false): Promise<void> {
  // In a contenteditable an inserted "\n" is a space in the rendered text, and Enter may send (chat boxes):
  // a line break there is Shift+Enter, as a person types it.
  const newline = editable ? 'Shift+Enter' : 'Enter';
  if (!keystrokes) {
    const lines = editable ? text.split(/\r?\n/) : [text];
    for (const [i, line] of lines.entries()) {
      if (i) await pressKey(page, newline);
      if (line) await page.send('Input.insertText', { text: line });
    }
    return;
  }
  for (const ch of text) {
    if (ch === '\n') {
      await pressKey(page, newline);
      continue;
    }
    let def: KeyDef;
    try {
      def = keyDef(ch);
    } catch {
      def = { key: ch, code: '', keyCode: 0, text: ch };
    }
    await keyEvent(page, 'keyDown', def, 0, ch);
    await keyEvent(page, 'keyUp', def, 0);
  }
}
