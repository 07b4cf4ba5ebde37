import assert from 'node:assert/strict';
import { fillField, selectOptions, setChecked } from '../../src/actions/choose';
import { clickElement, hoverElement } from '../../src/actions/click';
import { drag } from '../../src/actions/drag';
import { pressKey } from '../../src/actions/input';
import { typeFocused, typeInto } from '../../src/actions/type';
import { startServer, type TestServer } from '../helpers/servers';
import { evalPage, pageHandle, startHarness, type Harness } from './harness';
import { form, widgets } from './pages';

describe('actions: typing, forms, keys, custom widgets, dragging', function () {
  this.timeout(60_000);
  let h: Harness;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ '/form': form, '/widgets': widgets });
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await srv?.close();
  });
  const q = (sel: string, role = 'textbox', name = sel) => pageHandle(h, `document.querySelector(${JSON.stringify(sel)})`, role, name);
  const val = (sel: string) => evalPage<string>(h, `document.querySelector(${JSON.stringify(sel)}).value`);
  const events = () => evalPage<string[]>(h, 'window.events');

  describe('form of every input kind', () => {
    before(async () => {
      await h.ok('browser_navigate', { url: `${srv.origin}/form` });
    });

    it('replaces, appends and clears text', async () => {
      const s = await h.scope();
      assert.match((await typeInto(s, await q('#text', 'textbox', 'Text'), 'new')).text, /Typed "new" into textbox "Text"/);
      assert.equal(await val('#text'), 'new');
      await typeInto(s, await q('#text'), ' more', { clear: false });
      assert.equal(await val('#text'), 'new more');
      assert.match((await typeInto(s, await q('#text'), '')).text, /Cleared/);
      assert.equal(await val('#text'), '');
    });

    it('types into email, number, textarea (multi-line) and contenteditable', async () => {
      const s = await h.scope();
      await typeInto(s, await q('#email'), 'a@b.c');
      await typeInto(s, await q('#num'), '42');
      await typeInto(s, await q('#area'), 'line 1\nline 2');
      await typeInto(s, await q('#ce'), 'edited text');
      assert.equal(await val('#email'), 'a@b.c');
      assert.equal(await val('#num'), '42');
      assert.equal(await val('#area'), 'line 1\nline 2');
      assert.equal(await evalPage(h, `document.getElementById('ce').innerText.trim()`), 'edited text');
      await typeInto(s, await q('#ce'), ' plus', { clear: false });
      assert.equal(await evalPage(h, `document.getElementById('ce').innerText.trim()`), 'edited text plus');
    });

    it('never echoes a password', async () => {
      const s = await h.scope();
      const r = await typeInto(s, await q('#pw', 'textbox', 'Password'), 'hunter2');
      assert.equal(await val('#pw'), 'hunter2');
      assert.doesNotMatch(r.text, /hunter2/);
      assert.match(r.text, /7 characters \(hidden\)/);
    });

    it('sets date, time, color and range inputs, and rejects a malformed date', async () => {
      const s = await h.scope();
      await typeInto(s, await q('#date'), '2024-05-31');
      await typeInto(s, await q('#time'), '13:45');
      await typeInto(s, await q('#color'), '#ff0000');
      await typeInto(s, await q('#range', 'slider'), '70');
      assert.deepEqual(await Promise.all(['#date', '#time', '#color', '#range'].map(val)), ['2024-05-31', '13:45', '#ff0000', '70']);
      await assert.rejects(typeInto(s, await q('#date'), '31/05/2024'), (e: any) => e.code === 'INVALID_INPUT' && /YYYY-MM-DD/.test(e.hint));
    });

    it('refuses to type into a checkbox with a hint', async () => {
      const s = await h.scope();
      await assert.rejects(typeInto(s, await q('#cb', 'checkbox'), 'x'), (e: any) => e.code === 'NOT_INTERACTABLE' && /browser_click/.test(e.hint));
    });

    it('checks, selects by value or label, multi-selects, and fills mixed fields', async () => {
      const s = await h.scope();
      await setChecked(s, await q('#cb', 'checkbox', 'Agree'), true);
      assert.match((await setChecked(s, await q('#cb', 'checkbox', 'Agree'), true)).text, /already checked/);
      await fillField(s, await q('#r2', 'radio', 'B'), true);
      assert.match((await selectOptions(s, await q('#sel', 'combobox', 'Country'), ['Germany'])).text, /Selected "Germany"/);
      assert.equal(await val('#sel'), 'de');
      await selectOptions(s, await q('#sel', 'combobox'), ['fr']);
      assert.equal(await val('#sel'), 'fr');
      await assert.rejects(selectOptions(s, await q('#sel', 'combobox'), ['Spain']), (e: any) => e.code === 'TARGET_NOT_FOUND' && /France/.test(e.hint));
      await assert.rejects(selectOptions(s, await q('#sel', 'combobox'), ['Italy']), (e: any) => e.code === 'NOT_INTERACTABLE');
      await assert.rejects(selectOptions(s, await q('#text'), ['x']), (e: any) => e.code === 'NOT_INTERACTABLE' && /custom dropdown/.test(e.hint));
      await fillField(s, await q('#multi', 'listbox'), ['a', 'c']);
      assert.deepEqual(await evalPage(h, `[...document.getElementById('multi').selectedOptions].map(o => o.value)`), ['a', 'c']);
      await fillField(s, await q('#cb', 'checkbox'), false);
      assert.equal(await evalPage(h, `document.getElementById('cb').checked`), false);
    });

    it('presses keys and combinations, and submits with Enter', async () => {
      const s = await h.scope();
      await typeInto(s, await q('#keys'), 'abc');
      await pressKey(s.page, 'Control+A');
      await pressKey(s.page, 'Backspace');
      assert.equal(await val('#keys'), '');
      await pressKey(s.page, 'ArrowDown');
      await pressKey(s.page, 'Shift+Tab');
      assert.equal(await evalPage(h, 'document.activeElement.id'), 'ce');
      await typeInto(s, await q('#text'), 'sent', { submit: true });
      const ev = await events();
      assert.ok(ev.includes('down:ArrowDown'));
      assert.ok(ev.some((e) => e.startsWith('submit:text=sent')), ev.join());
    });

    it('types into the focused element without a ref', async () => {
      const s = await h.scope();
      await evalPage(h, `document.getElementById('email').focus()`);
      await typeFocused(s, 'x@y.z', { clear: true });
      assert.equal(await val('#email'), 'x@y.z');
    });
  });

  describe('custom widgets', () => {
    before(async () => {
      await h.ok('browser_navigate', { url: `${srv.origin}/widgets` });
    });

    it('autocomplete: type key by key, then click the suggestion', async () => {
      const s = await h.scope();
      await typeInto(s, await q('#ac', 'combobox', 'Fruit'), 'ap', { keystrokes: true });
      const options = await evalPage<string[]>(h, `[...document.querySelectorAll('#sugg li')].map(l => l.textContent)`);
      assert.deepEqual(options, ['Apple', 'Apricot']);
      await clickElement(s, await pageHandle(h, `document.querySelectorAll('#sugg li')[1]`, 'option', 'Apricot'));
      assert.equal(await val('#ac'), 'Apricot');
    });

    it('tabs switch panels; a hover menu opens and its item can be clicked', async () => {
      const s = await h.scope();
      await clickElement(s, await q('#t2', 'tab', 'Two'));
      assert.equal(await evalPage(h, `document.getElementById('p2').hidden`), false);
      await assert.rejects(clickElement(s, await q('#mi', 'menuitem', 'Item')), (e: any) => e.code === 'NOT_INTERACTABLE');
      await hoverElement(s, await q('#menuhost', 'generic', 'Menu'));
      await clickElement(s, await q('#mi', 'menuitem', 'Item'));
      assert.ok((await events()).includes('menu'));
    });

    it('datepicker: open the calendar, pick a day; tree: expand a node and click its child', async () => {
      const s = await h.scope();
      await assert.rejects(clickElement(s, await pageHandle(h, `document.querySelectorAll('#cal .day')[14]`, 'button', '15')), (e: any) => e.code === 'NOT_INTERACTABLE');
      await clickElement(s, await q('#dp', 'textbox', 'Pick a date'));
      await clickElement(s, await pageHandle(h, `document.querySelectorAll('#cal .day')[14]`, 'button', '15'));
      assert.equal(await val('#dp'), '2025-02-15');
      await clickElement(s, await q('#ti', 'treeitem', 'Fruits'));
      assert.equal(await evalPage(h, `document.getElementById('ti').getAttribute('aria-expanded')`), 'true');
      await clickElement(s, await q('#leaf', 'treeitem', 'Pear'));
      assert.ok((await events()).includes('leaf'));
    });

    it('drags a mouse-driven slider knob to a position', async () => {
      const s = await h.scope();
      const r = await drag(s, { handle: await q('#knob', 'slider', 'Knob') }, { handle: await q('#slider', 'generic', 'Track') }, { position: { x: 110, y: 10 } });
      assert.match(r.text, /mouse drag/);
      const ev = (await events()).filter((e) => e.startsWith('slider:'));
      assert.equal(ev.at(-1), 'slider:100');
    });

    it('reorders a mouse-event sortable list by dropping on the bottom edge of the last item', async () => {
      const s = await h.scope();
      const items = (i: number) => pageHandle(h, `document.querySelectorAll('#sortable li')[${i}]`, 'listitem', String(i));
      await drag(s, { handle: await items(0) }, { handle: await items(2) }, { position: 'bottom' });
      assert.equal(await evalPage(h, `[...document.querySelectorAll('#sortable li')].map(l => l.textContent).join('')`), 'BCA');
    });

    it('performs HTML5 drag-and-drop with the data transfer intact', async () => {
      const s = await h.scope();
      const r = await drag(s, { handle: await q('#src', 'generic', 'Drag me') }, { handle: await q('#dst', 'generic', 'Drop here') });
      assert.match(r.text, /drag-and-drop/);
      const ev = await events();
      assert.ok(ev.includes('dragstart'), ev.join());
      assert.ok(ev.includes('drop:payload'), ev.join());
    });
  });
});
