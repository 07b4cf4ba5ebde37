// The tasks: each starts in a fresh session and ends on text that proves it was done.
const field = /^(textbox|searchbox)$/i;

export const TASKS = {
  async login(a) {
    await a.open('/login');
    await a.type(field, /^Username/, 'ada');
    await a.type(field, /^Password/, 'secret');
    await a.click(/^button$/i, /^Log in$/);
    await a.expect(/Welcome, ada/);
  },
  async 'search and open'(a) {
    await a.open('/search');
    await a.type(field, /^Search products/, 'widget');
    await a.click(/^button$/i, /^Search$/);
    await a.expect(/results for/);
    await a.click(/^link$/i, /^Blue Widget$/);
    await a.expect(/Price: \$/);
  },
  async 'fill and submit'(a) {
    await a.open('/contact');
    await a.type(field, /^Name/, 'Ada Lovelace');
    await a.type(field, /^Email/, 'ada@example.com');
    await a.select(/^(combobox|listbox)$/i, /^Topic/, 'Billing');
    await a.type(field, /^Message/, 'My invoice is wrong.');
    await a.click(/^checkbox$/i, /I agree/);
    await a.click(/^button$/i, /^Send$/);
    await a.expect(/Thanks, Ada Lovelace! We got your message about Billing/);
  },
  async 'pick from a menu'(a) {
    await a.open('/files');
    await a.click(/^button$/i, /^Actions$/);
    await a.click(/^menuitem$/i, /^Duplicate$/);
    await a.expect(/Duplicated report\.pdf/);
  },
  async 'paginate a table'(a) {
    await a.open('/orders');
    const row = /Order #1037[\s\S]{0,80}?Grace[\s\S]{0,80}?(Shipped|Pending|Delivered)/;
    for (let page = 1; page <= 5; page++) {
      const m = await a.see(row);
      if (m) {
        if (m[1] !== 'Shipped') throw new Error(`order 1037 read as ${m[1]}`);
        return;
      }
      await a.click(/^button$/i, /^Next$/);
    }
    throw new Error('order 1037 never found');
  },
};
