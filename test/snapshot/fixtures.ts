// Purpose-built pages for the snapshot tests, and a helper to load a page and wait for it.
import type { Tab } from '../../src/session/tab';

export async function load(tab: Tab, url: string, timeoutMs = 15_000): Promise<void> {
  const s = await tab.session();
  const loaded = s.waitFor('Page.loadEventFired', () => true, timeoutMs);
  await s.send('Page.navigate', { url });
  await loaded;
}

export const BASICS = `<!doctype html><title>Basics</title>
<style>
  .icon-btn { width: 24px; height: 24px; border: 0; background: url(/img/icon-search.png) no-repeat; }
  .fake { display:inline-block; width: 20px; height: 20px; background: red; }
  .sr-only { position:absolute; width:1px; height:1px; overflow:hidden; clip: rect(0 0 0 0); }
  #overlay { position: fixed; left: 0; top: 400px; width: 400px; height: 100px; background: rgba(0,0,0,.5); }
  #under { position: absolute; left: 20px; top: 420px; }
  .custom input { opacity: 0; position: absolute; width: 0; height: 0; }
  .pointer { cursor: pointer; color: blue; }
</style>
<h1>Account settings</h1>
<p>Please fill in the form below. Read the <span class="pointer" id="terms">terms</span> first.</p>
<form>
  <label>Email <input id="email" type="email" value="a@b.c" required></label>
  <label for="pw">Password</label><input id="pw" type="password" value="hunter2">
  <label for="bio">Bio</label><textarea id="bio">Hello there</textarea>
  <input type="text" placeholder="Nickname" aria-invalid="true" readonly>
  <label><input type="checkbox" checked> Remember me</label>
  <label><input type="checkbox" id="mixed"> Select all</label>
  <label><input type="radio" name="r" value="1"> One</label><label><input type="radio" name="r" value="2" checked> Two</label>
  <label for="country">Country</label>
  <select id="country">${Array.from({ length: 20 }, (_, i) => `<option${i === 3 ? ' selected' : ''}>Country ${i}</option>`).join('')}</select>
  <select multiple aria-label="Toppings"><option selected>Cheese</option><option>Ham</option><option selected>Olives</option></select>
  <label for="vol">Volume</label><input id="vol" type="range" min="0" max="100" value="30">
  <div role="slider" aria-label="Brightness" aria-valuenow="7" aria-valuemin="0" aria-valuemax="10" tabindex="0"></div>
  <div contenteditable="true" aria-label="Notes">Draft text</div>
  <button type="submit" disabled>Save</button>
  <button aria-expanded="false">More options</button>
  <button aria-pressed="true">Bold</button>
  <div role="tablist"><div role="tab" aria-selected="true">General</div><div role="tab" aria-selected="false">Privacy</div></div>
  <label class="custom"><input type="checkbox" id="fancy"> Dark mode</label>
  <input type="file" id="upload" style="display:none">
  <input type="text" id="focusme" aria-label="Focused field" autofocus>
</form>
<button class="icon-btn"></button>
<button title="Close dialog">×</button>
<button aria-label="Open menu"><svg width="16" height="16"><path d="M0 0h16v2H0z"/></svg></button>
<div id="shape" style="cursor:pointer;display:inline-block"><svg width="30" height="30"><circle cx="15" cy="15" r="10" fill="red"/></svg></div>
<div id="listener" style="display:inline-block;width:30px;height:30px;background:#eee"></div>
<a href="/docs">Docs</a>
<a href="/a" style="display:none">Hidden link</a>
<a href="/b" style="visibility:hidden">Invisible link</a>
<a href="/c" style="position:absolute;left:-9999px">Offscreen link</a>
<a href="/d" class="sr-only">Skip to content</a>
<button style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>
<nav aria-hidden="true"><a href="/menu1">Menu one</a></nav>
<details><summary>Show more</summary><p>Hidden body</p></details>
<div id="under"><button>Covered button</button></div>
<div id="overlay">cookie banner</div>
<div style="height:2000px"></div>
<button id="far">Far below</button>
<script>
  document.getElementById('mixed').indeterminate = true;
  document.getElementById('listener').addEventListener('click', () => {});
</script>`;

export const FRAME_INNER = `<!doctype html><title>inner</title><p>Inside the frame</p><button>Pay now</button><input aria-label="Card number">`;

export function framesPage(crossOrigin: string): string {
  return `<!doctype html><title>Frames</title><button>Top button</button>
<iframe src="/inner" width="300" height="150"></iframe>
<iframe src="${crossOrigin}/inner" width="300" height="150"></iframe>
<p>After frames</p>`;
}

export const SHADOW = `<!doctype html><title>Shadow</title>
<my-card><span slot="title">Card title text</span></my-card>
<script>
  customElements.define('my-card', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = '<h2><slot name="title"></slot></h2><button id="inner">Shadow action</button><input placeholder="Shadow input">';
    }
  });
</script>`;

export const RERENDER = `<!doctype html><title>Rerender</title><div id="app"></div>
<script>
  let n = 0;
  function render() {
    document.getElementById('app').innerHTML = '<button>Save</button><a href="/x">Link ' + n + '</a><button id="del">Delete</button>';
  }
  render();
  window.rerender = () => { n++; render(); };
  window.dropDelete = () => document.getElementById('del').remove();
</script>`;

export function bigPage(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    rows.push(k === 0 ? `<button>Action ${i}</button>` : k === 1 ? `<a href="/item/${i}">Item ${i}</a>` : k === 2 ? `<input aria-label="Field ${i}">` : `<label><input type="checkbox"> Option ${i}</label>`);
    if (i % 10 === 0) rows.push(`<p>Section ${i} text</p>`);
  }
  return `<!doctype html><title>Big ${n}</title>${rows.join('\n')}`;
}
