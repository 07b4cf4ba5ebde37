// "Launch Browser" through the command system really starts a browser the extension can drive;
// "Close Browser" really stops it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startServer, type TestServer } from '../../helpers/servers';
import { alive, api, liveGroupMembers, waitFor } from './extension';

describe('Session commands', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ '/': '<!doctype html><title>E2E home</title><h1 id="h">Hello from 127.0.0.1</h1>' });
  });
  after(async () => {
    await vscode.commands.executeCommand('browserAgent.closeBrowser');
    await server?.close();
  });

  it('Launch Browser starts Chromium and its tab answers over CDP', async () => {
    const { sessions } = await api();
    await vscode.commands.executeCommand('browserAgent.launchBrowser');
    assert.equal(sessions.status.state, 'connected', `status after launch: ${JSON.stringify(sessions.status)}`);
    const session = sessions.current;
    assert.ok(session, 'a live session');
    assert.equal(session.kind, 'launched');
    assert.ok(session.pid && alive(session.pid), 'the browser process runs');
    const tab = await session.activeTab();
    assert.equal(await tab.evaluate('6 * 7'), 42);
    await tab.evaluate(`location.href = ${JSON.stringify(server.url)}`);
    await waitFor(async () => (await tab.evaluate('document.readyState + document.title')) === 'completeE2E home', 15_000, 'the test page to load');
    assert.equal(await tab.evaluate('document.getElementById("h").textContent'), 'Hello from 127.0.0.1');
  });

  it('Close Browser stops the browser and its whole process group', async () => {
    const { sessions } = await api();
    const pid = sessions.current?.pid;
    assert.ok(pid, 'a launched browser from the previous test');
    await vscode.commands.executeCommand('browserAgent.closeBrowser');
    assert.equal(sessions.status.state, 'none');
    assert.equal(sessions.current, undefined);
    // The browser and its renderers, GPU and utility processes share one group; none may survive it.
    await waitFor(() => liveGroupMembers(pid).length === 0, 10_000, `the processes of group ${pid} to exit`).catch(() => {
      throw new Error(`processes of group ${pid} survived Close Browser: ${liveGroupMembers(pid).join(', ')}`);
    });
  });
});
