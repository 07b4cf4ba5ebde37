import assert from 'node:assert/strict';
import { redactingChannel } from '../../src/safety/redactingChannel';
import { SecretVault, mapSecretSource } from '../../src/safety/secrets';
import { SessionManager } from '../../src/session/manager';

/**
 * The "Browser Agent" output channel shows tool results and session log lines. A VS Code host cannot
 * run here, so the channel is a recorder with a LogOutputChannel's write methods; the vault is the
 * real one, told the secret the way a tool call tells it (a placeholder resolved for typing).
 */
class RecordingChannel {
  readonly name = 'Browser Agent';
  readonly lines: string[] = [];
  disposed = false;
  append(v: string) { this.lines.push(v); }
  appendLine(v: string) { this.lines.push(v); }
  replace(v: string) { this.lines.push(v); }
  trace(m: string, ...a: unknown[]) { this.lines.push([m, ...a.map(String)].join(' ')); }
  debug(m: string, ...a: unknown[]) { this.lines.push([m, ...a.map(String)].join(' ')); }
  info(m: string, ...a: unknown[]) { this.lines.push([m, ...a.map(String)].join(' ')); }
  warn(m: string, ...a: unknown[]) { this.lines.push([m, ...a.map(String)].join(' ')); }
  error(e: string | Error, ...a: unknown[]) { this.lines.push([typeof e === 'string' ? e : `${e.message}\n${e.stack}`, ...a.map(String)].join(' ')); }
  show() {}
  dispose() { this.disposed = true; }
}

describe('the output channel never shows a secret', () => {
  const SECRET = 'hunter2-Sw0rdfish!';
  let vault: SecretVault;
  beforeEach(async () => {
    vault = new SecretVault(mapSecretSource({ BANK_PASSWORD: SECRET }));
    assert.equal(await vault.resolve('{{secret:BANK_PASSWORD}}'), SECRET);
    vault.remember('typed-into-a-password-field');
  });

  it('every write method, in every spelling the value comes back in, shows the placeholder', () => {
    const raw = new RecordingChannel();
    const channel = redactingChannel(raw, (t) => vault.redact(t));
    const spellings = [SECRET, encodeURIComponent(SECRET), Buffer.from(`user:${SECRET}`).toString('base64')];
    for (const s of spellings) {
      channel.info(`browser_type: Typed ${s}`);
      channel.warn(`Tab crashed: http://bank.example/?p=${s}`);
      channel.error(`Could not start the browser session: ${s}`);
      channel.error(new Error(`navigation to http://evil.example/${s} failed`));
      channel.append(s);
      channel.appendLine(s);
      channel.replace(s);
      channel.trace(s);
      channel.debug(s);
    }
    channel.info('and typed-into-a-password-field');
    assert.equal(raw.lines.length, spellings.length * 9 + 1);
    const all = raw.lines.join('\n');
    for (const s of [...spellings, 'typed-into-a-password-field', 'Sw0rdfish']) assert.ok(!all.includes(s), `${s} reached the channel:\n${all}`);
    assert.match(all, /Tab crashed: http:\/\/bank\.example\/\?p=\{\{secret:BANK_PASSWORD\}\}/);
  });

  it('other members pass through (name, show, dispose), unchanged', () => {
    const raw = new RecordingChannel();
    const channel = redactingChannel(raw, (t) => vault.redact(t));
    assert.equal(channel.name, 'Browser Agent');
    channel.dispose();
    assert.equal(raw.disposed, true);
  });

  it('the session manager\'s own log lines (an attach endpoint holding the secret, its failure) arrive redacted', async () => {
    // src/vscode/log.ts builds the manager's logger on the redacting channel, in this shape.
    const raw = new RecordingChannel();
    const channel = redactingChannel(raw, (t) => vault.redact(t));
    const logger = { info: (m: string) => channel.info(m), warn: (m: string) => channel.warn(m), error: (m: string) => channel.error(m) };
    // A real manager attaching to a closed port whose URL carries the secret (a token in an endpoint a person pasted).
    const endpoint = `http://127.0.0.1:9/json/version?token=${encodeURIComponent(SECRET)}`;
    const sessions = new SessionManager(() => ({ mode: 'attach', launch: {}, attach: { endpoint }, cdpTimeoutMs: 3000 }), logger);
    await assert.rejects(sessions.ensure());
    await sessions.dispose();
    const all = raw.lines.join('\n');
    // A token in the URL's query is hidden at the source (src/session/remoteEngines.ts), before the vault sees it.
    assert.ok(raw.lines.some((l) => l.includes('Attaching to') && (l.includes('{{secret:BANK_PASSWORD}}') || l.includes('token=***'))), all);
    assert.ok(!all.includes(SECRET) && !all.includes(encodeURIComponent(SECRET)), all);
  });
});
