import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskRecord } from '../../src/vscode/chat/messages';
import type { AgentMessage } from '../../src/agent/types';
import { CHAT_FILE, clearHistory, CONVERSATION_FILE, importLegacyChats, listHistory, openHistory, openThread, saveConversation, saveTranscript } from '../../src/vscode/chat/chatHistory';
import { ChatThread } from '../../src/vscode/chat/chatThread';
import { AuditRecorder } from '../../src/audit/recorder';

describe('audit: one task history for the chat panel and Task History', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'ba-hist-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lists every task with the same words; a chat task opens as it was seen, a Copilot task from its steps', async () => {
    const rec = new AuditRecorder({ root, screenshots: false });
    const chat = rec.startTask('Greet Ada', { source: 'chat' });
    const seen: TaskRecord = { id: chat.id, task: 'Greet Ada', startedAt: Date.now(), provider: 'p', status: 'stopped', entries: [{ kind: 'user', text: 'Greet Ada' }, { kind: 'assistant', text: 'On it.' }, { kind: 'result', status: 'stopped', summary: 'Stopped by the user.' }] };
    await chat.end('cancelled', 'Stopped by the user.', 'stopped');
    await saveTranscript(chat.dir, seen);
    assert.equal(statSync(join(chat.dir, CHAT_FILE)).mode & 0o777, 0o600, 'only the user may read a conversation');
    const copilot = rec.startTask('Copilot tool calls on 2026-11-23', { source: 'copilot', implicit: true });
    await copilot.recordStep(async () => ({ ts: new Date().toISOString(), tool: 'browser_click', input: { ref: '3' }, target: { role: 'button', name: 'Go' }, before: {}, after: {}, risk: 'auto', decision: 'auto', ok: false, result: 'TARGET_NOT_FOUND: no element [3]\nHint: take a snapshot', errorCode: 'TARGET_NOT_FOUND', durationMs: 5 }));
    await copilot.end('ended');
    const list = await listHistory(root);
    assert.equal(list.length, 2);
    const item = list.find((i) => i.id === chat.id)!;
    assert.equal(item.status, 'stopped', "the chat's own status, not the log's coarser one");
    assert.match(item.label!, /^Stopped by you · 0 steps · Chat/);
    assert.deepEqual(await openHistory(root, chat.id), seen);
    const built = (await openHistory(root, copilot.id))!;
    const card = built.entries.find((e) => e.kind === 'card');
    assert.ok(card && card.kind === 'card');
    assert.equal(card.card.state, 'error');
    assert.equal(card.card.message, 'no element [3]', 'the failing step says why');
  });

  it('clears finished tasks only, and imports the old chat history once without losing it', async () => {
    const rec = new AuditRecorder({ root, screenshots: false });
    const running = rec.startTask('still running', { source: 'chat' });
    await running.ready;
    const legacy: TaskRecord[] = [{ id: 'abc-123', task: 'Old task', startedAt: Date.parse('2026-11-01T10:00:00Z'), endedAt: Date.parse('2026-11-01T10:01:00Z'), provider: 'x', status: 'failure', entries: [{ kind: 'user', text: 'Old task' }, { kind: 'result', status: 'failure', summary: 'no luck' }] }];
    assert.equal(await importLegacyChats(root, legacy), 1);
    assert.equal(await importLegacyChats(root, legacy), 0, 'once');
    const old = (await listHistory(root)).find((i) => i.task === 'Old task')!;
    assert.equal(old.status, 'failure');
    assert.equal(old.startedAt, Date.parse('2026-11-01T10:00:00Z'), 'keeps its time');
    assert.equal((await openHistory(root, old.id))?.entries[1].kind, 'result');
    assert.ok(existsSync(join(root, old.id, CHAT_FILE)));
    assert.equal(await clearHistory(root), 1);
    assert.deepEqual((await listHistory(root)).map((i) => i.task), ['still running'], 'a running task is kept');
    await running.end('success');
  });

  it('a thread is one row (its first words, newest outcome and time) and opens whole, with what the model knew', async () => {
    const rec = new AuditRecorder({ root, screenshots: false });
    const turn = async (goal: string, status: 'success' | 'failure', thread?: string, conversation?: AgentMessage[]) => {
      const t = rec.startTask(goal, { source: 'chat', ...(thread ? { thread } : {}) });
      await t.end(status, `${goal}: ${status}`, status);
      await saveTranscript(t.dir, { id: t.id, threadId: thread ?? t.id, task: goal, startedAt: Date.now(), provider: 'p', status, entries: [{ kind: 'user', text: goal }, { kind: 'result', status, summary: status }] });
      if (conversation) await saveConversation(t.dir, conversation);
      return t;
    };
    const said = (text: string): AgentMessage[] => [{ role: 'user', content: [{ type: 'text', text }] }];
    const first = await turn('Greet Ada', 'success', undefined, said('Task: Greet Ada'));
    await new Promise((r) => setTimeout(r, 5)); // distinct start times
    const other = await turn('Something else', 'success');
    await new Promise((r) => setTimeout(r, 5));
    await turn('Do it again with Grace', 'failure', first.id, said('after the second turn'));
    await new Promise((r) => setTimeout(r, 5));
    // A third turn the model never answered keeps no conversation: the thread goes on from the second.
    await turn('And once more', 'failure', first.id);

    const rows = await listHistory(root);
    assert.deepEqual(rows.map((r) => [r.id, r.task, r.status, r.turns]), [[first.id, 'Greet Ada', 'failure', 3], [other.id, 'Something else', 'success', 1]], 'newest activity first, one row per thread');
    assert.match(rows[0].when!, /^\d{1,2} \w{3}, \d\d:\d\d$/, 'with a time');
    const thread = (await openThread(root, first.id))!;
    assert.deepEqual(thread.turns.map((t) => t.task), ['Greet Ada', 'Do it again with Grace', 'And once more'], 'oldest first');
    assert.deepEqual(thread.conversation, said('after the second turn'));
    assert.equal(statSync(join(root, first.id, CONVERSATION_FILE)).mode & 0o777, 0o600, 'only the user may read what the model was sent');
    const resumed = ChatThread.resume(thread)!;
    assert.equal(resumed.current?.task, 'And once more');
    assert.deepEqual(resumed.earlier.map((t) => t.task), ['Greet Ada', 'Do it again with Grace']);
    // A task with no saved conversation (a Copilot task, a replay) opens to look at, not to continue.
    const copilot = rec.startTask('Copilot tool calls', { source: 'copilot', implicit: true });
    await copilot.end('ended');
    assert.equal(ChatThread.resume((await openThread(root, copilot.id))!), undefined);
    assert.equal(await openThread(root, 'no-such-thread'), undefined);
  });
});
