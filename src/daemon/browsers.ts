import { rmSync } from 'node:fs';
import { launchBrowser } from '../session/launcher';
import { resolveEndpoint } from '../session/endpoints';
import { TabClaims } from '../session/tabClaims';
import { connectWebSocket } from '../session/transport';
import { isBrowserPool, redactEndpoint } from '../session/remoteEngines';
import { RelayTransport } from '../session/relayTransport';
import { BrowserHub } from './hub';
import { hubAnswers } from './browserCheck';
import { browserKey } from './browserKey';
import { adopted, ownsProfile, type Launched, type LaunchRecords } from './launchRecords';
import type { BrowserSpec } from './protocol';
import type { RelayServer } from './relayServer';
import { ignore } from '../base/ignore';

/** How long a client asking for the relay waits for the Chrome extension to connect. */
const RELAY_CONNECT_MS = Number(process.env.BROWSER_AGENT_RELAY_CONNECT_MS) || 15_000;

export interface Browser {
  key: string;
  kind: 'launched' | 'attached';
  endpoint: string;
  headless: boolean;
  hub: BrowserHub;
  launched?: Launched;
  /** Attached: the handshake headers (remote fleets) and the tab claims shared with --no-daemon servers. */
  headers?: Record<string, string>;
  claims?: TabClaims;
  /** A remote-browser engine's browser, made for this daemon's connection: closed with its last session. */
  pool?: boolean;
}

export interface BrowsersOptions {
  records: LaunchRecords;
  log: (line: string) => void;
  /** The relay endpoint for the Chrome extension, turned on by the first relay session. */
  relay: () => Promise<RelayServer>;
  /** The browser crashed or its connection dropped (after what it launched was cleaned up). */
  onGone: (b: Browser) => Promise<void>;
}

/**
 * The browsers of the daemon, one per browser key: launched, attached or reached through the Chrome extension
 * once, whoever asks first, and shared by every session that asks for the same one.
 */
export class Browsers {
  private readonly byKey = new Map<string, Browser>();
  private readonly starting = new Map<string, Promise<Browser>>();

  constructor(private readonly opts: BrowsersOptions) {}

  get(key: string): Browser | undefined {
    return this.byKey.get(key);
  }

  all(): Browser[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Browsers being launched or attached to right now. */
  get startingCount(): number {
    return this.starting.size;
  }

  ofHub(hub: BrowserHub): Browser | undefined {
    return this.all().find((b) => b.hub === hub);
  }

  /** The shared browser for a spec: launched or attached once, whoever asks first; `ownerSession`: one of that session's own. */
  async open(spec: BrowserSpec, cdpTimeoutMs?: number, ownerSession?: string): Promise<Browser> {
    const key = ownerSession ? `${browserKey(spec)} session ${ownerSession}` : browserKey(spec);
    const live = this.byKey.get(key);
    if (live && !live.hub.isClosed) {
      if (await hubAnswers(live.hub)) return live;
      // Frozen, or its connection stalled: its sessions end, a browser we launched is killed, the next one starts.
      this.opts.log(`Browser ${key} does not answer; ${live.launched ? 'closing it' : 'dropping the connection'}.`);
      live.hub.close();
      await live.launched?.kill().catch((e) => ignore(e, 'the browser may have exited already'));
    }
    let p = this.starting.get(key);
    if (!p) {
      p = this.connect(key, spec, cdpTimeoutMs).finally(() => this.starting.delete(key));
      this.starting.set(key, p);
    }
    return p;
  }

  private async connect(key: string, spec: BrowserSpec, cdpTimeoutMs?: number): Promise<Browser> {
    const browser = spec.mode === 'launch' ? await this.launch(key, spec, cdpTimeoutMs) : spec.mode === 'relay' ? await this.throughRelay(key, cdpTimeoutMs) : await this.attach(key, spec, cdpTimeoutMs);
    this.add(browser);
    return browser;
  }

  private async launch(key: string, spec: Extract<BrowserSpec, { mode: 'launch' }>, cdpTimeoutMs?: number): Promise<Browser> {
    this.opts.log(`Launching ${spec.launch.executablePath ?? 'Chrome/Chromium'} (${spec.launch.headless ? 'headless' : 'headed'})`);
    const launched = { ...(await launchBrowser(spec.launch)), headless: !!spec.launch.headless, key };
    this.opts.records.record(launched, true);
    try {
      const transport = await connectWebSocket(launched.wsEndpoint);
      const hub = new BrowserHub(transport, cdpTimeoutMs);
      launched.process.once('exit', () => hub.close());
      await hub.init();
      return { key, kind: 'launched', endpoint: launched.wsEndpoint, headless: !!spec.launch.headless, hub, launched };
    } catch (e) {
      await launched.kill();
      this.opts.records.record(launched, false);
      throw e;
    }
  }

  private async throughRelay(key: string, cdpTimeoutMs?: number): Promise<Browser> {
    const relay = await this.opts.relay();
    await relay.waitConnected(RELAY_CONNECT_MS);
    const hub = await initHub(new BrowserHub(new RelayTransport(relay, cdpTimeoutMs), cdpTimeoutMs));
    return { key, kind: 'attached', endpoint: `relay://127.0.0.1:${relay.port}`, headless: false, hub };
  }

  private async attach(key: string, spec: Extract<BrowserSpec, { mode: 'attach' }>, cdpTimeoutMs?: number): Promise<Browser> {
    this.opts.log(`Attaching to ${redactEndpoint(spec.endpoint)}`);
    const ws = await resolveEndpoint(spec.endpoint, spec.headers);
    const hub = await initHub(new BrowserHub(await connectWebSocket(ws, { headers: spec.headers }), cdpTimeoutMs));
    // An engine's browser is ours alone: no other server's claims to respect.
    const pool = isBrowserPool(ws);
    return { key, kind: 'attached', endpoint: ws, headless: false, hub, headers: spec.headers, claims: pool ? undefined : new TabClaims(ws), pool };
  }

  private add(browser: Browser) {
    browser.hub.onclose = () => void this.gone(browser);
    this.byKey.set(browser.key, browser);
  }

  /** The browser crashed or the connection dropped: what we launched is cleaned up, then the daemon hears. */
  private async gone(b: Browser) {
    if (this.byKey.get(b.key) === b) this.byKey.delete(b.key);
    if (b.launched) {
      await b.launched.kill().catch((e) => ignore(e, 'the browser may have exited already'));
      this.opts.records.record(b.launched, false);
    }
    await this.opts.onGone(b);
  }

  /**
   * An engine's browser whose last session ended: its connection is closed, so the engine frees the browser
   * and the pool slot at once (not when the daemon exits).
   */
  closePool(b: Browser): void {
    if (this.byKey.get(b.key) === b) this.byKey.delete(b.key);
    b.hub.onclose = undefined;
    b.hub.close();
    this.opts.log(`Closed the connection to ${b.key}: its last session ended.`);
  }

  /**
   * A daemon that was killed leaves its browser running, with clients still working in it: adopt
   * it (they re-register and go on), or close it if it no longer answers.
   */
  async adoptLeftovers(): Promise<void> {
    const { records, log } = this.opts;
    const list = records.leftovers();
    if (!list) return;
    for (const r of list) {
      const b = adopted(r);
      if (!ownsProfile(r)) {
        if (r.temporaryProfile) rmSync(r.userDataDir, { recursive: true, force: true });
        continue;
      }
      const key = r.key ?? browserKey({ mode: 'launch', launch: { headless: r.headless } });
      if (this.byKey.has(key)) {
        await b.kill();
        continue;
      }
      try {
        const hub = new BrowserHub(await connectWebSocket(r.wsEndpoint, { connectTimeoutMs: 3000 }));
        await hub.init();
        this.add({ key, kind: 'launched', endpoint: r.wsEndpoint, headless: r.headless, hub, launched: b });
        records.record(b, true);
        log(`Adopted browser pid ${r.pid} left by an earlier daemon.`);
      } catch {
        log(`Closing browser pid ${r.pid} left by an earlier daemon (it does not answer).`);
        await b.kill();
      }
    }
    if (!this.byKey.size) records.remove();
  }

  /** The daemon stops: launched browsers are closed, attached ones only detached from. */
  async closeAll(): Promise<void> {
    for (const b of this.all()) {
      this.byKey.delete(b.key);
      if (b.launched) {
        const asked = await b.hub.call('Browser.close', {}, undefined, 2000).then(
          () => true,
          () => false,
        );
        b.hub.close();
        await b.launched.kill(asked ? 3000 : 0);
        this.opts.records.record(b.launched, false);
      } else {
        b.claims?.releaseAll();
        b.hub.close(); // never close a browser we only attached to
      }
    }
  }
}

/** A hub that fails to start is closed. */
async function initHub(hub: BrowserHub): Promise<BrowserHub> {
  try {
    await hub.init();
  } catch (e) {
    hub.close();
    throw e;
  }
  return hub;
}
