import type { AgentOutcome } from '../../agent/events';

/**
 * Whether a task goes back into the box when its run ends. Whatever did not get it done — a model error before or
 * after some steps, Stop, a crashed browser, a declined confirmation, a run cut short, a claim not verified — leaves
 * the words the person typed ready to send again or to edit; only a run that did it leaves the box empty. (The box
 * takes it only when empty: nothing typed since is overwritten.)
 */
export function taskBackInBox(outcome: Pick<AgentOutcome, 'status'> | undefined): boolean {
  return outcome?.status !== 'success';
}
