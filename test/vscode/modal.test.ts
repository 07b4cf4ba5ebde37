import assert from 'node:assert/strict';
import type { MessageItem } from 'vscode';
import type { ConfirmRequest } from '../../src/safety/decider';
import { ALLOW, CANCEL, createModalConfirmer, DONT_ALLOW } from '../../src/vscode/modal';
import { modalText } from '../../src/vscode/modalText';

const pay: ConfirmRequest = {
  tool: 'browser_click', toolTitle: 'Click',
  rating: { level: 'confirm', rule: 'sensitive-target-on-sensitive-page', reason: 'the element is consequential' },
  preview: { message: 'Clicking button "Pay now" on shop.example.com', url: 'https://shop.example.com/checkout', target: { role: 'button', name: 'Pay now', ref: 'e12' } },
  origin: 'https://shop.example.com', pageTitle: 'Checkout',
};
const script: ConfirmRequest = {
  tool: 'browser_evaluate', toolTitle: 'Run JavaScript',
  rating: { level: 'confirm', rule: 'always-confirm:browser_evaluate', reason: 'browser_evaluate is always confirmed: it runs arbitrary JavaScript in the page' },
  preview: { message: 'Running JavaScript: document.title = "x";\nreturn 1', url: 'http://127.0.0.1:18765/confirm', code: 'document.title = "x";\nreturn 1' },
  origin: 'http://127.0.0.1:18765', pageTitle: 'Confirm test',
};

describe('VS Code modal confirmation', () => {
  it('asks one plain question naming the action and the site; rule ids stay out of the text', () => {
    const t = modalText(pay);
    assert.equal(t.title, 'Allow Browser Agent to click button "Pay now" on shop.example.com?');
    assert.match(t.detail, /Element: button «Pay now» \[e12\]/);
    assert.match(t.detail, /Page: «Checkout» — https:\/\/shop\.example\.com\/checkout/);
    assert.match(t.detail, /Why we ask: The element is consequential\./);
    assert.doesNotMatch(`${t.title}\n${t.detail}`, /sensitive-target-on-sensitive-page|Rule:/);
    assert.equal(t.allowSite, 'Allow on shop.example.com for This Session');
  });

  it('shows a script once, as code, and not in the title', () => {
    const t = modalText(script);
    assert.equal(t.title, 'Allow Browser Agent to run JavaScript on 127.0.0.1:18765?');
    assert.equal(t.detail.split('document.title').length - 1, 1, t.detail);
    assert.match(t.detail, /Script:\n {4}document\.title = "x";\n {4}return 1/);
    assert.doesNotMatch(t.detail, /always-confirm/);
  });

  it('"type and submit", "go back": verbs read as a question', () => {
    const q = (message: string) => modalText({ ...pay, preview: { message } }).title;
    assert.equal(q('Typing and submitting textbox "Search" on shop.example.com'), 'Allow Browser Agent to type into textbox "Search" and submit on shop.example.com?');
    assert.equal(q('Typing textbox "Password"'), 'Allow Browser Agent to type into textbox "Password" on shop.example.com?');
    // What the type tool's preview says (Task History shows it as the step's name).
    assert.equal(q('Typing into textbox "Password" on shop.example.com'), 'Allow Browser Agent to type into textbox "Password" on shop.example.com?');
    assert.equal(q('Typing and submitting into textbox "Search"'), 'Allow Browser Agent to type into textbox "Search" and submit on shop.example.com?');
    assert.equal(q('Going back on shop.example.com'), 'Allow Browser Agent to go back on shop.example.com?');
  });

  it('"Don\'t Allow" is the first button (VS Code focuses it, so Enter refuses); the narrowest grant before the site one', async () => {
    const shown: { message: string; detail?: string; modal?: boolean; items: MessageItem[] }[] = [];
    let pick: (items: MessageItem[]) => MessageItem | undefined = (items) => items[1];
    const confirm = createModalConfirmer(async (message, options, ...items) => (shown.push({ message, detail: options.detail, modal: options.modal, items }), pick(items)));
    assert.equal(await confirm(pay), 'allow-site');
    // VS Code lays these out from the right on Linux and macOS: Allow, Allow on … for This Session, Cancel, Don't Allow.
    assert.deepEqual(shown[0].items.map((i) => i.title), [DONT_ALLOW, 'Allow on shop.example.com for This Session', ALLOW, CANCEL]);
    assert.ok(!shown[0].items[0].isCloseAffordance && shown[0].items[3].isCloseAffordance);
    assert.equal(shown[0].modal, true);
    pick = (items) => items[2];
    assert.equal(await confirm(pay), 'allow');
    pick = (items) => items[0];
    assert.equal(await confirm(pay), 'refuse');
    pick = (items) => items[3];
    assert.equal(await confirm(pay), 'refuse');
    pick = () => undefined;
    assert.equal(await confirm(pay), 'refuse', 'Escape refuses');
    const noSite = createModalConfirmer(async (_m, _o, ...items) => (shown.push({ message: '', items }), items[1]));
    assert.equal(await noSite({ ...pay, origin: undefined }), 'allow');
    assert.deepEqual(shown.at(-1)!.items.map((i) => i.title), [DONT_ALLOW, ALLOW, CANCEL]);
  });
});
