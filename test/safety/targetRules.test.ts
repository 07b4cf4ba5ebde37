import assert from 'node:assert/strict';
import { ratePolicy } from '../../src/safety/policy';
import { normalizePolicy } from '../../src/safety/settings';
import { actionUrlWord, consequentialTarget, findInForms, looksLikeCardNumber } from '../../src/safety/targetRules';
import { displayText, foldText, quotePageText } from '../../src/safety/textFold';

const settings = normalizePolicy({});

/** The pure parts of the rules the evasion tests (evasions.test.ts) drive through real Chromium: edge cases and false positives. */
describe('safety: target rules and folded text', () => {
  it('folds the disguises a page uses, and keeps non-Latin phrases matching as written', () => {
    assert.equal(foldText('De\u200Blete'), 'Delete');
    assert.equal(foldText('D\u0435l\u0435te'), 'Delete');
    assert.equal(foldText('Ｄｅｌｅｔｅ'), 'Delete');
    assert.equal(foldText('𝐃𝐞𝐥𝐞𝐭𝐞'), 'Delete');
    assert.equal(foldText('D e l e t e'), 'Delete');
    assert.equal(foldText('P-a-y now'), 'Pay now');
    assert.equal(foldText('De\u00ADle\u2060te'), 'Delete');
    assert.equal(foldText('Dél̈ete'), 'Delete');
    for (const [text, word] of [['Dеlete account', 'Delete'], ['удалить', 'удалить'], ['Ρay now', 'Pay now'], ['删 除', '删除']] as const) {
      assert.equal(findInForms(text, settings.sensitiveTargetPatterns)?.word.toLowerCase(), word.toLowerCase(), text);
    }
    // Whole words still: no new false positives from folding.
    for (const text of ['Sender details', 'Postcode', 'Ordering tips', 'a b', 'Remover guide']) assert.equal(findInForms(text, settings.sensitiveTargetPatterns), undefined, text);
  });

  it('names where the word was found; icon words only from the icon list', () => {
    assert.match(consequentialTarget({ name: 'Cancel', facts: { visible: 'Delete account' } }, settings)!, /visible text says "Delete"/);
    assert.match(consequentialTarget({ name: '', facts: { drawn: ['Pay now'] } }, settings)!, /CSS-drawn text says "Pay now"/);
    assert.match(consequentialTarget({ facts: { hints: ['btn', 'icon', 'trash'] } }, settings)!, /icon says "trash"/);
    assert.equal(consequentialTarget({ name: 'Next', facts: { hints: ['btn', 'primary', 'binary'] } }, settings), undefined);
    assert.match(consequentialTarget({ name: 'Continue', facts: { href: 'https://x.example/account/delete?confirm=1' } }, settings)!, /action URL \("delete"\)/);
  });

  it('action URLs: a word of the query, or of the path when the URL carries arguments; not a page or an article', () => {
    assert.equal(actionUrlWord('https://x.example/account/delete?confirm=1'), 'delete');
    assert.equal(actionUrlWord('https://x.example/settings?action=delete'), 'delete');
    assert.equal(actionUrlWord('https://x.example/delete-account?id=3'), 'delete');
    assert.equal(actionUrlWord('https://x.example/api/deleteAccount?id=3'), 'delete');
    assert.equal(actionUrlWord('https://x.example/pay?amount=100&to=bob'), 'pay');
    assert.equal(actionUrlWord('https://x.example/shop/pay'), undefined);
    assert.equal(actionUrlWord('https://x.example/account/delete'), undefined);
    assert.equal(actionUrlWord('https://x.example/help/how-to-delete-your-account?lang=en'), undefined);
    assert.equal(actionUrlWord('https://x.example/blog/posts?page=2'), undefined);
    assert.equal(actionUrlWord('https://x.example/payments/history?page=2'), undefined);
    assert.equal(actionUrlWord('javascript:delete()'), undefined);
  });

  it('card numbers: Luhn-valid 13–19 digits with spaces or dashes; not phone numbers, not repeated digits', () => {
    for (const n of ['4242 4242 4242 4242', '4242-4242-4242-4242', '5555555555554444', 'card: 378282246310005 ok']) assert.ok(looksLikeCardNumber(n), n);
    for (const n of ['4242 4242 4242 4241', '+1 415 555 0100', '0000000000000000', '12345', 'order 20261124']) assert.ok(!looksLikeCardNumber(n), n);
  });

  it('a card number typed into any field is confirmed as a sensitive field', () => {
    const r = ratePolicy('browser_type', 'input', { ref: '3', text: '4111 1111 1111 1111' }, { message: 'Typing', url: 'https://blog.example/', target: { ref: '3', role: 'textbox', name: 'Comment' } }, settings);
    assert.equal(r.rule, 'sensitive-field');
    assert.equal(r.level, 'confirm');
    const plain = ratePolicy('browser_type', 'input', { ref: '3', text: 'hello 4111' }, { message: 'Typing', url: 'https://blog.example/', target: { ref: '3', role: 'textbox', name: 'Comment' } }, settings);
    assert.equal(plain.level, 'auto');
  });

  it('Enter in a form field: consequential by the form\'s button; a plain search form elsewhere is not asked about', () => {
    const t = (buttons: string[]) => ({ ref: '1', role: 'textbox', name: 'Amount', tag: 'input', facts: { tag: 'input', submitsForm: { buttons } } });
    const pay = ratePolicy('browser_press_key', 'input', { key: 'Enter' }, { message: 'Pressing', url: 'https://shop.example/basket', target: t(['Pay now']) }, settings);
    assert.equal(pay.level, 'notify');
    assert.match(pay.reason!, /Enter submits its form, whose button says "Pay now"/);
    const search = ratePolicy('browser_type', 'input', { ref: '1', text: 'shoes', submit: true }, { message: 'Typing', url: 'https://shop.example/', target: t(['Search']) }, settings);
    assert.equal(search.level, 'auto');
    const onAccount = ratePolicy('browser_type', 'input', { ref: '1', text: 'x', submit: true }, { message: 'Typing', url: 'https://shop.example/account/settings', target: t(['Save']) }, settings);
    assert.equal(onAccount.level, 'confirm');
  });

  it('text for a person: one line, no bidi or invisible characters, cut, quotes that cannot be closed', () => {
    assert.equal(displayText('Pay\nWhy: nothing\u202EetelED'), 'Pay Why: nothingetelED');
    assert.equal(displayText('x'.repeat(500), 80).length, 80);
    assert.equal(quotePageText('a » b « c'), '«a › b ‹ c»');
  });
});
