import assert from 'node:assert/strict';
import { statusText } from '../../src/vscode/statusText';
import { resolveHeadless } from '../../src/session/headless';

describe('vscode: status bar text and headless resolution', () => {
  it('shows each session state', () => {
    assert.match(statusText({ state: 'none' }).text, /none/);
    assert.match(statusText({ state: 'starting', kind: 'launched' }).text, /launching/);
    assert.match(statusText({ state: 'starting', kind: 'attached' }).text, /attaching/);
    // Plain words: whose browser it is; "headless" only explained in the tooltip.
    const launched = statusText({ state: 'connected', kind: 'launched', headless: true, tabTitle: 'A very long page title that keeps going on', tabUrl: 'https://x.test/', tabs: 3 });
    assert.equal(launched.text, '$(globe) Browser: A very long page title that k…');
    assert.equal(launched.tooltip, 'Started by Browser Agent, no window (headless)\nA very long page title that keeps going on · https://x.test/ · 3 tab(s)\nClick for actions.');
    const windowed = statusText({ state: 'connected', kind: 'launched', headless: false, tabTitle: 'T', tabUrl: 'https://x.test/', tabs: 1 });
    assert.match(windowed.tooltip, /^Started by Browser Agent, in its own window/);
    const attached = statusText({ state: 'connected', kind: 'attached', headless: false, tabTitle: 'Shop', tabUrl: 'https://shop.test/', tabs: 2 });
    assert.equal(attached.text, '$(plug) Your browser: Shop');
    assert.match(attached.tooltip, /^Your own browser; Close only detaches, it keeps running/);
    const shared = statusText({ state: 'connected', kind: 'launched', headless: true, tabTitle: 'T', tabUrl: 'https://x.test/', tabs: 1, shared: true });
    assert.equal(shared.text, '$(globe) Browser (shared): T');
    assert.match(shared.tooltip, /^Started by the session daemon, no window \(headless\); other windows and MCP clients have their own tabs/);
    assert.match(shared.tooltip, /1 tab\(s\) of ours/);
    for (const t of [launched, windowed, attached, shared]) assert.doesNotMatch(t.text, /headless|launched|attached/);
    assert.match(statusText({ state: 'disconnected', reason: 'boom' }).tooltip, /boom/);
    // A launch that failed with nothing running never connected: not "disconnected".
    const failed = statusText({ state: 'disconnected', reason: 'The browser executable /nope does not exist.', failed: 'launched' });
    assert.equal(failed.text, '$(warning) Browser: could not launch');
    assert.match(failed.tooltip, /^Browser Agent could not launch the browser: The browser executable \/nope does not exist\./);
    // A minute later the failure is no longer news: the bar says none, the tooltip still says why.
    const attachFailed = { state: 'disconnected' as const, reason: 'nothing listens on 127.0.0.1:9222', failed: 'attached' as const };
    assert.equal(statusText(attachFailed).text, '$(warning) Browser: could not attach');
    const aged = statusText(attachFailed, true);
    assert.equal(aged.text, '$(globe) Browser: none');
    assert.match(aged.tooltip, /The last try could not attach to the browser: nothing listens on 127\.0\.0\.1:9222/);
    const relay = statusText({ state: 'connected', kind: 'attached', headless: false, tabTitle: 'Inbox', tabUrl: 'https://mail.test/', tabs: 1, shared: true, relay: true });
    assert.equal(relay.text, '$(extensions) Your Chrome: Inbox');
    assert.match(relay.tooltip, /tabs you share in your own Chrome, through the Browser Agent extension; Close only detaches/);
  });

  it('runs headless on Linux without a display unless told otherwise', () => {
    assert.equal(resolveHeadless('auto', {}, 'linux'), true);
    assert.equal(resolveHeadless('auto', { DISPLAY: ':0' }, 'linux'), false);
    assert.equal(resolveHeadless('auto', {}, 'darwin'), false);
    assert.equal(resolveHeadless('on', { DISPLAY: ':0' }, 'linux'), true);
    assert.equal(resolveHeadless('off', {}, 'linux'), false);
  });
});
