import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MOVED_SETTINGS, moveSettings, readMoved, type SettingsScope } from '../../src/vscode/settingMoves';

/** A settings file as VS Code keeps it: a flat key → value map; `failOn` makes a write to that key throw. */
function file(name: string, values: Record<string, unknown>, failOn?: string): SettingsScope & { values: Record<string, unknown> } {
  return {
    name, target: 1, values,
    value: (k) => values[k],
    write: async (k, v) => {
      if (k === failOn) throw new Error('Unable to write into user settings: the file has unsaved changes');
      if (v === undefined) delete values[k];
      else values[k] = v;
    },
  };
}

/** WorkspaceConfiguration's get/inspect over one user and one workspace file. */
function config(user: Record<string, unknown>, workspace: Record<string, unknown> = {}) {
  return {
    get: <T>(k: string, d?: T) => (workspace[k] ?? user[k] ?? d) as T,
    inspect: (k: string) => ({ key: k, globalValue: user[k], workspaceValue: workspace[k] }),
  } as never;
}

const { vscodeLmModel: lm, mcpPublish: mcp } = MOVED_SETTINGS;

describe('vscode: renamed settings move to their new keys', () => {
  it('moves a value from the user and the workspace settings, and removes the old key from each', async () => {
    const user = file('User', { [lm.from]: 'gpt-4.1', [mcp.from]: true, 'browserAgent.agent.mode': 'dom' });
    const ws = file('Workspace', { [lm.from]: 'claude-sonnet' });
    const lines = await moveSettings([user, ws]);
    assert.deepEqual(user.values, { [lm.to]: 'gpt-4.1', [mcp.to]: true, 'browserAgent.agent.mode': 'dom' });
    assert.deepEqual(ws.values, { [lm.to]: 'claude-sonnet' });
    assert.equal(lines.length, 3);
    assert.match(lines[0], /User settings: browserAgent\.agent\.vscodeLm\.model moved to browserAgent\.agent\.VSCodeLMModel/);
  });

  it('keeps a value the user already gave the new key, and still removes the old one', async () => {
    const user = file('User', { [mcp.from]: false, [mcp.to]: true });
    await moveSettings([user]);
    assert.deepEqual(user.values, { [mcp.to]: true });
  });

  it('loses nothing when a write fails: the old value stays and is still read', async () => {
    const user = file('User', { [lm.from]: 'gpt-4.1' }, lm.to);
    const lines = await moveSettings([user]);
    assert.deepEqual(user.values, { [lm.from]: 'gpt-4.1' });
    assert.match(lines[0], /could not be moved .*has unsaved changes.*still read from there/);
    assert.equal(readMoved(config(user.values), lm, ''), 'gpt-4.1');
  });

  it('a second activation finds nothing to move; a false or empty value moves too', async () => {
    const user = file('User', { [mcp.from]: false, [lm.from]: '' });
    await moveSettings([user]);
    assert.deepEqual(user.values, { [mcp.to]: false, [lm.to]: '' });
    assert.deepEqual(await moveSettings([user]), []);
  });

  it('readers take the new key, the old one until it has moved, else the default', () => {
    assert.equal(readMoved(config({ [lm.from]: 'old' }), lm, ''), 'old');
    assert.equal(readMoved(config({ [lm.from]: 'old', [lm.to]: 'new' }), lm, ''), 'new');
    assert.equal(readMoved(config({ [lm.to]: 'new' }, { [lm.from]: 'ws-old' }), lm, ''), 'new', 'a new key anywhere wins');
    assert.equal(readMoved(config({}, { [mcp.from]: true }), mcp, false), true);
    assert.equal(readMoved(config({}), mcp, false), false);
  });

  it('package.json declares the new keys and no longer the old ones', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: Array<{ properties: Record<string, unknown> }> } };
    const keys = pkg.contributes.configuration.flatMap((c) => Object.keys(c.properties));
    for (const m of [lm, mcp]) {
      assert.ok(keys.includes(m.to), m.to);
      assert.ok(!keys.includes(m.from), m.from);
    }
  });
});
