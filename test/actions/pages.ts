/** Purpose-built pages for the executor tests, served from 127.0.0.1. */
export const log = `<script>window.events = []; const ev = (e) => events.push(e); </script>`;

export const buttons = `<!doctype html><title>buttons</title>${log}
<style>body{margin:0;height:3000px} button{font-size:16px}</style>
<button id=plain onclick="ev('plain')">Plain</button>
<button id=dbl ondblclick="ev('dbl')">Double</button>
<button id=ctx oncontextmenu="ev('right');return false">Right</button>
<button id=mods onclick="ev('mods:' + e(event))">Mods</button>
<script>function e(ev){return [ev.ctrlKey&&'c',ev.shiftKey&&'s',ev.altKey&&'a'].filter(Boolean).join('')}</script>
<button id=disabled disabled onclick="ev('disabled')">Disabled</button>
<button id=hidden style="display:none">Hidden</button>
<div style="position:relative;margin-top:20px;height:60px">
  <button id=covered onclick="ev('covered')">Covered</button>
  <div id=cookie-banner style="position:absolute;left:0;top:0;width:300px;height:60px;background:#eee">We use cookies</div>
</div>
<div><button id=moving onclick="ev('moving')" style="position:relative;left:0;transition:left .4s linear">Moving</button></div>
<button id=far onclick="ev('far')" style="position:absolute;top:2500px">Far below</button>
<div><label><input id=hiddencheck type=checkbox style="opacity:0;width:0;height:0;position:absolute"> Styled checkbox</label></div>
<div><button id=hold onmousedown="window.t0=performance.now()" onmouseup="ev('held:' + (performance.now()-t0 > 250))">Hold</button></div>
<x-card></x-card>
<script>
customElements.define('x-card', class extends HTMLElement { constructor(){ super(); this.attachShadow({mode:'open'}).innerHTML = '<button id=sh>Shadow button</button>'; this.shadowRoot.querySelector('button').onclick = () => ev('shadow'); } });
setTimeout(() => document.getElementById('moving').style.left = '200px', 30);
</script>`;

export const frameInner = `<!doctype html><title>inner</title><body style="margin:0;padding:20px">
<button id=inner onclick="this.textContent='clicked ' + (++window.n || (window.n = 1))">Inner</button>
<input id=innerText></body>`;

export function frames(crossOrigin: string, sameOrigin: string) {
  return `<!doctype html><title>frames</title><body style="margin:0">
<div style="height:50px">top</div>
<iframe id=same src="${sameOrigin}/inner" style="position:absolute;left:40px;top:60px;width:300px;height:150px;border:5px solid #000"></iframe>
<iframe id=cross src="${crossOrigin}/inner" style="position:absolute;left:400px;top:230px;width:300px;height:150px;border:7px solid #000"></iframe></body>`;
}

export const form = `<!doctype html><title>form</title>${log}
<form id=f onsubmit="event.preventDefault(); ev('submit:' + new URLSearchParams(new FormData(this)))">
<input id=text name=text value="old">
<input id=email name=email type=email>
<input id=num name=num type=number>
<input id=pw name=pw type=password>
<input id=date name=date type=date>
<input id=time name=time type=time>
<input id=color name=color type=color>
<input id=range name=range type=range min=0 max=100 value=10 style="width:200px">
<textarea id=area name=area></textarea>
<input id=cb name=cb type=checkbox>
<input id=r1 name=r type=radio value=a><input id=r2 name=r type=radio value=b>
<select id=sel name=sel><option value=fr>France</option><option value=de>Germany</option><option value=it disabled>Italy</option></select>
<select id=multi name=multi multiple><option>a</option><option>b</option><option>c</option></select>
<div id=ce contenteditable style="min-height:20px;border:1px solid">start</div>
<input id=keys onkeydown="ev('down:' + event.key)">
<button>Send</button>
</form>`;

export const widgets = `<!doctype html><title>widgets</title>${log}
<style>li{padding:8px;border:1px solid #999;margin:2px;list-style:none;user-select:none} .menu{display:none} .host:hover .menu{display:block}</style>
<input id=ac placeholder="Fruit" oninput="suggest(this.value)" autocomplete=off><ul id=sugg></ul>
<script>const fruits=['Apple','Apricot','Banana','Cherry'];function suggest(v){document.getElementById('sugg').innerHTML=v?fruits.filter(f=>f.toLowerCase().startsWith(v.toLowerCase())).map(f=>'<li role=option onclick="pick(this)">'+f+'</li>').join(''):''}function pick(li){document.getElementById('ac').value=li.textContent;document.getElementById('sugg').innerHTML='';ev('picked:'+li.textContent)}</script>
<div role=tablist><button role=tab id=t1 aria-selected=true onclick="tab(1)">One</button><button role=tab id=t2 aria-selected=false onclick="tab(2)">Two</button></div>
<div id=p1>Panel one</div><div id=p2 hidden>Panel two</div>
<script>function tab(n){for(const i of [1,2]){document.getElementById('t'+i).setAttribute('aria-selected',i===n);document.getElementById('p'+i).hidden=i!==n}}</script>
<div class=host style="display:inline-block;padding:10px" id=menuhost>Menu<div class=menu role=menu><div role=menuitem id=mi onclick="ev('menu')">Item</div></div></div>
<div id=slider style="position:relative;width:200px;height:20px;background:#ddd;margin:20px"><div id=knob style="position:absolute;left:0;top:0;width:20px;height:20px;background:#333"></div></div>
<script>
(() => { const s = document.getElementById('slider'), k = document.getElementById('knob'); let drag = false;
k.addEventListener('mousedown', () => drag = true);
addEventListener('mousemove', (e) => { if (!drag) return; const r = s.getBoundingClientRect(); k.style.left = Math.max(0, Math.min(180, e.clientX - r.left - 10)) + 'px'; });
addEventListener('mouseup', () => { if (drag) ev('slider:' + parseInt(k.style.left)); drag = false; }); })();
</script>
<ul id=sortable><li>A</li><li>B</li><li>C</li></ul>
<script>
(() => { const ul = document.getElementById('sortable'); let dragging = null;
ul.addEventListener('mousedown', (e) => { dragging = e.target.closest('li'); });
addEventListener('mousemove', (e) => { if (!dragging) return; const over = document.elementFromPoint(e.clientX, e.clientY)?.closest('#sortable li');
  if (over && over !== dragging) { const r = over.getBoundingClientRect(); ul.insertBefore(dragging, e.clientY < r.top + r.height / 2 ? over : over.nextSibling); } });
addEventListener('mouseup', () => { if (dragging) ev('order:' + [...ul.children].map(l => l.textContent).join('')); dragging = null; }); })();
</script>
<div><input id=dp readonly placeholder="Pick a date" onclick="cal.hidden = false"><div id=cal hidden role=grid>${[...Array(28)].map((_, i) => `<button type=button class=day onclick="dp.value = '2025-02-${String(i + 1).padStart(2, '0')}'; cal.hidden = true">${i + 1}</button>`).join('')}</div></div>
<ul role=tree><li role=treeitem id=ti aria-expanded=false onclick="this.setAttribute('aria-expanded', this.getAttribute('aria-expanded') !== 'true'); sub.hidden = !sub.hidden">Fruits<ul id=sub role=group hidden><li role=treeitem id=leaf onclick="event.stopPropagation(); ev('leaf')">Pear</li></ul></li></ul>
<div id=src draggable=true style="width:60px;height:30px;background:#9cf" ondragstart="event.dataTransfer.setData('text/plain','payload');ev('dragstart')">Drag me</div>
<div id=dst style="width:120px;height:60px;background:#fc9;margin-top:20px" ondragover="event.preventDefault()" ondrop="event.preventDefault();ev('drop:'+event.dataTransfer.getData('text/plain'))">Drop here</div>`;
