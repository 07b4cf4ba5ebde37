import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type Route, type TestServer } from './servers';

export interface LoggedServer extends TestServer {
  /** Every request that reached the server (method, path, body), WebSocket upgrades included. */
  log: string[];
}

/**
 * A real loopback server that records every request it receives, WebSocket handshakes too
 * (they never reach the request handler). A blocked origin's log must stay empty.
 */
export async function startLoggedServer(routes: Record<string, Route> = {}, host?: string): Promise<LoggedServer> {
  const s = await startServer(routes, host);
  const log: string[] = [];
  s.server.prependListener('request', (req: IncomingMessage, _res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    const line = `${req.method} ${req.url}`;
    log.push(line);
    req.on('end', () => {
      if (body) log[log.indexOf(line)] = `${line} ${body}`;
    });
  });
  s.server.on('upgrade', (req: IncomingMessage, socket) => {
    log.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  return Object.assign(s, { log });
}

/** Pages of an allowed server that reach `blocked` (its origin) by every route a page can take. */
export function routesTo(blocked: string, blockedOtherSite: string): Record<string, Route> {
  const redirect = (to: string): Route => (_req, res) => {
    res.writeHead(302, { location: to });
    res.end();
  };
  return {
    '/': '<title>home</title><p>allowed home</p>',
    '/r302': redirect(`${blocked}/hop`),
    '/r1': redirect('/r2'),
    '/r2': redirect(`${blocked}/hop2`),
    '/link': `<title>link</title><a id=go href="${blocked}/link">go</a>`,
    '/popup': `<title>popup</title><button id=go onclick="window.open('${blocked}/popup')">open</button>`,
    '/blank': `<title>blank</title><a id=go target=_blank href="${blocked}/blank">open</a>`,
    '/meta0': `<title>meta0</title><meta http-equiv=refresh content="0;url=${blocked}/meta0">`,
    '/meta2': `<title>meta2</title><meta http-equiv=refresh content="2;url=${blocked}/meta2">`,
    '/timed': `<title>timed</title><script>setTimeout(() => { location.href = '${blocked}/timed'; }, 1500)</script>`,
    '/iframe': `<title>iframe</title><iframe src="${blocked}/frame"></iframe>`,
    '/oopif': `<title>oopif</title><iframe src="${blockedOtherSite}/frame"></iframe>`,
    '/formget': `<title>formget</title><form id=f action="${blocked}/formget" method=get><input name=card value=4111111111111111></form>`,
    '/formpost': `<title>formpost</title><form id=f action="${blocked}/formpost" method=post><input name=card value=4111111111111111></form>`,
    '/tabredirect': `<title>tabredirect</title><button id=go onclick="window.open('/r302')">open</button>`,
    '/resources': `<title>resources</title><img src="${blocked}/img.png"><script src="${blocked}/script.js"></script><link rel=stylesheet href="${blocked}/style.css">`,
    '/calls': `<title>calls</title><script>
      fetch('${blocked}/fetch').catch(() => {});
      const x = new XMLHttpRequest(); x.open('GET', '${blocked}/xhr'); x.onerror = () => {}; x.send();
      navigator.sendBeacon('${blocked}/beacon', 'data');
    </script>`,
    '/socket': `<title>socket</title><script>
      try { const ws = new WebSocket('${blocked.replace(/^http/, 'ws')}/socket'); ws.onerror = () => {}; } catch {}
    </script>`,
    '/worker': `<title>worker</title><script>new Worker('/worker.js')</script>`,
    '/worker.js': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`fetch('${blocked}/from-worker').catch(() => {});`);
    },
    '/late': `<title>late</title><p>a request after the load</p><script>setTimeout(() => fetch('${blocked}/after-load', { mode: 'no-cors' }).catch(() => {}), 1500)</script>`,
    '/download': `<title>download</title><a id=go href="${blocked}/file.bin" download>get</a>`,
    // A fresh script URL each time: a shared worker is reused per URL, and a service worker only installs when its script changes.
    '/sharedworker': `<title>shared worker</title><script>new SharedWorker('/shared.js?' + Math.random())</script>`,
    '/shared.js': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`fetch('${blocked}/from-shared').catch(() => {});`);
    },
    '/serviceworker': `<title>service worker</title><script>navigator.serviceWorker.register('/sw.js?' + Math.random())</script>`,
    '/sw.js': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`self.addEventListener('install', (e) => e.waitUntil(fetch('${blocked}/from-sw').catch(() => {})));`);
    },
    '/swsocket': `<title>service worker socket</title><script>navigator.serviceWorker.register('/sw-socket.js?' + Math.random())</script>`,
    '/sw-socket.js': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      // Each start opens a WebSocket and fetches; a message makes the worker fetch and answer (so a test sees it ran again).
      res.end(`try { new WebSocket('${blocked.replace(/^http/, 'ws')}/sw-socket').onerror = () => {}; } catch {}
fetch('${blocked}/sw-start', { mode: 'no-cors' }).catch(() => {});
self.addEventListener('message', (e) => e.waitUntil(fetch('${blocked}/sw-fetch', { mode: 'no-cors' }).then(() => 'reached', () => 'refused').then((r) => e.source.postMessage('awake, fetch ' + r))));`);
    },
  };
}

/** Routes of the blocked server: answers everything so that, unguarded, each route does reach it. */
export function blockedRoutes(): Record<string, Route> {
  const page = '<title>blocked page</title><script>fetch("/ran").catch(() => {})</script><button>blocked button</button>';
  const any = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
  };
  const routes: Record<string, Route> = {};
  for (const p of ['/direct', '/hop', '/hop2', '/link', '/popup', '/blank', '/meta0', '/meta2', '/timed', '/frame', '/formget', '/formpost', '/img.png', '/script.js', '/style.css', '/fetch', '/xhr', '/beacon', '/from-worker', '/from-shared', '/from-sw', '/ran', '/page', '/eval', '/ws']) routes[p] = any;
  routes['/file.bin'] = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="file.bin"' });
    res.end('binary');
  };
  return routes;
}
