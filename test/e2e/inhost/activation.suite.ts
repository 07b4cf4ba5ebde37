// The installed .vsix activates by itself, registers every command it declares and its settings schema.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, browserAgent, manifest } from './extension';

describe('Browser Agent in a real VS Code extension host', () => {
  it('is installed from the .vsix, not loaded in development mode', () => {
    const ext = browserAgent();
    assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
    assert.ok(!ext.extensionPath.includes('/test/e2e/'), `loaded from ${ext.extensionPath}`);
    assert.match(ext.extensionPath, /browser-agent\.browser-agent-\d+\.\d+\.\d+/);
  });

  it('activates on startup and exports its session API', async () => {
    const exported = await api();
    assert.ok(exported.sessions, 'activate() returns { sessions }');
    assert.equal(exported.sessions.status.state, 'none');
  });

  it('registers every command declared in package.json', async () => {
    await api();
    const declared = manifest().contributes.commands.map((c) => c.command);
    assert.ok(declared.length >= 5, `only ${declared.length} commands declared`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('contributes its settings schema with the declared defaults', () => {
    const groups = manifest().contributes.configuration;
    // Grouped, so the Settings editor shows Browser, Connection, Agent, Safety, Audit, MCP, Skills apart.
    assert.deepEqual(groups.map((g) => g.title), ['Browser', 'Connection', 'Agent (chat panel)', 'Anthropic', 'OpenAI-compatible', 'Safety', 'Audit log', 'MCP server', 'Skills']);
    const props = Object.assign({}, ...groups.map((g) => g.properties)) as Record<string, { default?: unknown }>;
    const keys = Object.keys(props);
    assert.ok(keys.length >= 9, `only ${keys.length} settings declared`);
    const config = vscode.workspace.getConfiguration();
    for (const key of keys) {
      const inspected = config.inspect(key);
      assert.ok(inspected, `${key} is unknown to the host`);
      assert.deepEqual(inspected.defaultValue, props[key].default, `default of ${key}`);
    }
    // The e2e user settings override these two; the host must report both layers.
    assert.equal(config.inspect('browserAgent.browser.headless')?.globalValue, 'on');
    assert.equal(config.get('browserAgent.connection.mode'), 'launch');
  });
});
