import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CdpConnection, type CdpSession } from '../../src/session/cdp';
import { launchBrowser, sleep, type LaunchedBrowser } from '../../src/session/launcher';
import { DIST, runDaemonCli, until } from './daemon';
import { parsePairingCode } from '../../src/session/relayProtocol';
import { TEST_LAUNCH } from './chromium';

// out/test/helpers → dist (the built tests); test/helpers → dist (run from source with tsx).
export const EXTENSION_DIR = [join(DIST, 'chrome-extension'), join(__dirname, '..', '..', 'dist', 'chrome-extension')].find((d) => existsSync(join(d, 'manifest.json'))) ?? join(DIST, 'chrome-extension');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/**
 * Real Chromium (new headless) with the built companion extension loaded, and a CDP connection of
 * the test's own: the test's hands. Toolbar clicks and the side panel cannot be used headless, so
 * the test calls the same functions they call (`browserAgentRelay.share(tabId)`, `.pair(code)`) in
 * the extension's service worker over CDP, and opens the side panel page in a tab to wake the worker.
 */
export interface ChromeWithExtension {
  browser: LaunchedBrowser;
  conn: CdpConnection;
  extensionId: string;
  /** Evaluates in the service worker (woken first if Chrome stopped it). */
  worker<T = unknown>(expression: string): Promise<T>;
  /** Opens a page in a new tab; returns its targetId and chrome tab id. */
  open(url: string): Promise<{ targetId: string; tabId: number }>;
  /** Stops every service worker, as Chrome does to an idle extension worker. */
  stopWorkers(): Promise<void>;
  /** Opens the side panel page in a tab (what a user opening the side panel does): the worker wakes. */
  openPanel(): Promise<string>;
  stop(): Promise<void>;
}

export async function chromeWithExtension(extensionDir = EXTENSION_DIR, opts: { display?: string } = {}): Promise<ChromeWithExtension> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No built Chrome extension in ${extensionDir}: run npm run build.`);
  // `display`: headed on that X display (a person's browser), else headless.
  const display = process.env.DISPLAY;
  if (opts.display) process.env.DISPLAY = opts.display;
  const browser = await launchBrowser({ ...TEST_LAUNCH, headless: !opts.display, args: [...TEST_LAUNCH.args!, `--load-extension=${extensionDir}`, `--disable-extensions-except=${extensionDir}`] }).finally(() => {
    if (display === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = display;
  });
  try {
    return await withExtension(browser);
  } catch (e) {
    await browser.kill();
    throw e;
  }
}

async function withExtension(browser: LaunchedBrowser): Promise<ChromeWithExtension> {
  const conn = await CdpConnection.connect(browser.wsEndpoint, { timeoutMs: 15_000 });
  const workerTarget = async () => {
    const { targetInfos } = await conn.send('Target.getTargets');
    return targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://') && t.url.endsWith('/worker.js'));
  };
  let target;
  for (let i = 0; i < 100 && !(target = await workerTarget()); i++) await sleep(100);
  if (!target) throw new Error('The extension service worker did not start: Chromium did not load the extension.');
  const extensionId = new URL(target.url).host;
  let session: { targetId: string; s: CdpSession } | undefined;
  let page: CdpSession | undefined;
  const pageSession = async () => {
    if (page) return page;
    // A tab of the test's own (never one the extension shares): the ServiceWorker domain lives on a page.
    const { targetId } = await conn.send('Target.createTarget', { url: 'about:blank', background: true });
    page = conn.session((await conn.send('Target.attachToTarget', { targetId, flatten: true })).sessionId);
    await page.send('ServiceWorker.enable');
    return page;
  };
  const api = {
    browser,
    conn,
    extensionId,
    async worker<T>(expression: string): Promise<T> {
      let t = await workerTarget();
      if (!t) {
        await api.openPanel();
        for (let i = 0; i < 50 && !(t = await workerTarget()); i++) await sleep(100);
        if (!t) throw new Error('the service worker did not wake');
      }
      if (session?.targetId !== t.targetId) session = { targetId: t.targetId, s: conn.session((await conn.send('Target.attachToTarget', { targetId: t.targetId, flatten: true })).sessionId) };
      // A worker target shows up before its script has run: wait for the script's global.
      for (let i = 0; i < 100; i++) {
        const ready = await session.s.send('Runtime.evaluate', { expression: 'typeof browserAgentRelay', returnByValue: true });
        if (ready.result.value === 'object') break;
        await sleep(50);
      }
      const r = await session.s.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      return r.result.value as T;
    },
    async open(url: string) {
      const { targetId } = await conn.send('Target.createTarget', { url });
      const tabId = await api.worker<number>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`);
      return { targetId, tabId };
    },
    async stopWorkers() {
      await (await pageSession()).send('ServiceWorker.stopAllWorkers');
      session = undefined;
      for (let i = 0; i < 50 && (await workerTarget()); i++) await sleep(50);
    },
    async openPanel() {
      const { targetId } = await conn.send('Target.createTarget', { url: `chrome-extension://${extensionId}/panel.html` });
      return targetId;
    },
    async stop() {
      conn.close();
      await browser.kill();
    },
  };
  // Opened now, before any tab is shared: Chrome records the active tab as the opener of a tab
  // created later, and the extension shares tabs opened from shared ones.
  await pageSession();
  return api;
}

/** A WebSocket handshake with the relay endpoint; the HTTP status of a refusal, or 101. */
export function knock(port: number, origin: string | undefined, protocols: string[]): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, protocols, origin ? { origin } : {});
    ws.once('open', () => (ws.close(), resolve(101)));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

/**
 * The daemon CLI's pairing (which turns relay mode on) pasted into a fresh Chromium's extension, as a
 * user does with "Pair Chrome Extension"; resolves once the extension is connected.
 */
export async function pairedChrome(env: Record<string, string>, opts: { display?: string } = {}): Promise<{ chrome: ChromeWithExtension; code: string; port: number }> {
  const paired = await runDaemonCli(env, 'pair', '--json');
  if (paired.code !== 0) throw new Error(`pair failed: ${paired.stderr}`);
  const { code } = JSON.parse(paired.stdout) as { code: string };
  const chrome = await chromeWithExtension(EXTENSION_DIR, opts);
  try {
    await chrome.worker(`browserAgentRelay.pair(${JSON.stringify(code)})`);
    await until(async () => (await chrome.worker<{ state: string }>('browserAgentRelay.state()')).state === 'connected', 15_000, 'the extension to connect').catch(async (e) => {
      throw new Error(`${e.message}: ${JSON.stringify(await chrome.worker('browserAgentRelay.state()'))}; daemon log: ${readFileSync(join(env.BROWSER_AGENT_DAEMON_DIR, 'daemon.log'), 'utf8')}`);
    });
  } catch (e) {
    await chrome.stop();
    throw e;
  }
  return { chrome, code, port: parsePairingCode(code)!.port };
}
