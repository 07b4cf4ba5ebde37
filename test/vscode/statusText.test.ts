import assert from 'node:assert/strict';
import { statusText } from '../../src/vscode/statusText';
import { resolveHeadless } from '../../src/session/headless';

describe('vscode: status bar text and headless resolution', () => {
  it('shows each session state', () => {
    assert.match(statusText({ state: 'none' }).text, /none/);
    assert.match(statusText({ state: 'starting', kind: 'launched' }).text, /launching/);
    assert.match(statusText({ state: 'starting', kind: 'attached' }).text, /attaching/);
    const c = statusText({ state: 'connected', kind: 'attached', headless: true, tabTitle: 'A very long page title that keeps going on', tabUrl: 'https://x.test/', tabs: 3 });
    assert.match(c.text, /^\$\(globe\) attached \(headless\): A very long page title that k…$/);
    assert.match(c.tooltip, /3 tab\(s\)/);
    assert.match(statusText({ state: 'disconnected', reason: 'boom' }).tooltip, /boom/);
    const relay = statusText({ state: 'connected', kind: 'attached', headless: false, tabTitle: 'Inbox', tabUrl: 'https://mail.test/', tabs: 1, shared: true, relay: true });
    assert.equal(relay.text, '$(extensions) your Chrome: Inbox');
    assert.match(relay.tooltip, /tabs you share in your own Chrome, through the Browser Agent extension/);
  });

  it('runs headless on Linux without a display unless told otherwise', () => {
    assert.equal(resolveHeadless('auto', {}, 'linux'), true);
    assert.equal(resolveHeadless('auto', { DISPLAY: ':0' }, 'linux'), false);
    assert.equal(resolveHeadless('auto', {}, 'darwin'), false);
    assert.equal(resolveHeadless('on', { DISPLAY: ':0' }, 'linux'), true);
    assert.equal(resolveHeadless('off', {}, 'linux'), false);
  });
});
