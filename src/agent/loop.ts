import { errorMessage } from '../base/errors';
import { currentPageUrl } from '../skills/gate';
import { Cancelled } from './abort';
import { AgentRun, type AgentOptions } from './agentRun';
import type { AgentOutcome } from './events';
import { followUpText } from './thread';
import { answerCall, type Turn } from './turnCalls';
import type { ToolCall, UserPart } from './types';
import { ignore } from '../base/ignore';

export type { AgentOptions } from './agentRun';

/**
 * The agent: observe → decide → act → verify over the tool registry until the model calls
 * `finish`, the step limit is reached, the loop gets stuck, or the user stops it. Never throws.
 * The run's state and steps are in agentRun.ts; each call of a turn is answered in turnCalls.ts.
 */
export async function runAgent(o: AgentOptions): Promise<AgentOutcome> {
  const run = new AgentRun(o);
  const { context, byName, earlier } = run;
  await run.start();

  try {
    // Observe first: the task arrives together with the page it starts from and the user's skills for it.
    const first: UserPart[] = [{ type: 'text', text: earlier.length ? followUpText(o.task) : `Task: ${o.task}` }];
    run.addGuidance(first, await run.guide?.atStart(run.startUrl).catch((e) => ignore(e, 'guidance is a nicety; the run starts without it')));
    context.push({ role: 'user', content: first });
    const snap = byName.get(run.snapshotName);
    if (snap && run.startUrl) {
      // Unique in the thread: every run of it starts with one (the APIs refuse a repeated call id).
      const call: ToolCall = { id: earlier.length ? `initial_snapshot_${earlier.length}` : 'initial_snapshot', name: snap.name, input: {} };
      const r = await run.execute(snap, {}, 0);
      context.push({ role: 'assistant', text: '', toolCalls: [call] });
      context.push({ role: 'user', content: [{ type: 'tool_result', callId: call.id, name: call.name, content: run.visible(r.content), isError: r.isError, step: 0 }] });
    }
    run.tokens();

    while (true) {
      if (run.step >= o.maxSteps) return run.done('max-steps', `Stopped after ${o.maxSteps} steps without finishing.`);
      let streamed = '';
      const reply = await o.provider.send({
        system: run.system,
        messages: context.messages,
        tools: await run.offeredSpecs(),
        signal: o.signal,
        onText: (d) => {
          streamed += d;
          run.emit({ type: 'text', delta: d });
        },
      });
      run.replied = true;
      if (reply.usage) run.usage = { inputTokens: reply.usage.inputTokens, outputTokens: run.usage.outputTokens + reply.usage.outputTokens };
      run.emit({ type: 'turn', step: run.step, text: reply.text || streamed });
      context.push({ role: 'assistant', text: reply.text, toolCalls: reply.toolCalls });

      if (!reply.toolCalls.length) {
        run.step++;
        if (++run.textOnlyTurns >= 2) return run.done('failure', reply.text || 'The model stopped without calling finish.');
        context.push({ role: 'user', content: [{ type: 'text', text: 'Continue the task with a tool call, or call finish if it is done or cannot be done.' }] });
        run.tokens();
        continue;
      }
      run.textOnlyTurns = 0;

      const turn: Turn = { results: [], skipRest: '' };
      for (const call of reply.toolCalls) {
        const ended = await answerCall(run, turn, call);
        if (ended) return ended;
      }
      const { finished, results } = turn;
      if (!finished) run.addGuidance(results, await run.guide?.onPage(await currentPageUrl(run.ctx)).catch((e) => ignore(e, 'guidance is a nicety; the turn goes on without it')));
      context.push({ role: 'user', content: results });
      run.tokens();
      if (finished) return run.done(finished.status, finished.summary, finished.data, finished.reason);
    }
  } catch (e) {
    if (o.signal.aborted || e instanceof Cancelled) return run.done('stopped', 'Stopped by the user.');
    return run.done('error', errorMessage(e));
  }
}
