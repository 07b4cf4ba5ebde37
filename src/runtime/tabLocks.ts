import { BrowserAgentError } from '../base/errors';
import type { Tab } from '../session/tab';
import type { ToolContext, ToolDefinition } from '../contract/types';

/**
 * Calls on one tab run one at a time — they share one pointer, one focus, and the snapshot's ref
 * numbering — while calls on different tabs run in parallel; there is no lock across tabs. Tools
 * marked `concurrent` (they read pixels or text and touch no ref state) share the tab with each other.
 */
class TabLock {
  private exclusive = false;
  private shared = 0;
  private readonly queue: Array<{ mode: 'shared' | 'exclusive'; grant: () => void }> = [];

  acquire(mode: 'shared' | 'exclusive', signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const entry = {
        mode,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          if (mode === 'exclusive') this.exclusive = true;
          else this.shared++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            if (mode === 'exclusive') this.exclusive = false;
            else this.shared--;
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new BrowserAgentError('CANCELLED', 'Cancelled while waiting for the previous call on this tab.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.pump();
    });
  }

  /** Grants in arrival order: a waiting exclusive call is never overtaken by later shared ones. */
  private pump() {
    while (this.queue.length && !this.exclusive) {
      const next = this.queue[0];
      if (next.mode === 'exclusive' && this.shared > 0) return;
      this.queue.shift();
      next.grant();
    }
  }
}

const locks = new WeakMap<Tab, TabLock>();

function lockOf(tab: Tab): TabLock {
  let l = locks.get(tab);
  if (!l) locks.set(tab, (l = new TabLock()));
  return l;
}

export interface TabTurn {
  /** The context for this call, its tab pinned to the one it waited for. */
  ctx: ToolContext;
  release(): void;
}

/**
 * Waits for this call's turn on the tab it will act on (the active tab when it was issued) and
 * pins the call to that tab, so a tab switch by an earlier call cannot send it elsewhere.
 * Session tools with no browser running need no tab.
 */
export async function takeTurn(tool: ToolDefinition, ctx: ToolContext): Promise<TabTurn> {
  // No session manager (a context with no browser behind it), a tool that needs no browser, or a session
  // tool with no browser yet: no tab to share, and none is launched for it.
  if (!ctx.sessions || tool.browserless || (tool.risk === 'session' && !ctx.sessions.current)) return { ctx, release: () => {} };
  const tab = await ctx.tab();
  const release = await lockOf(tab).acquire(tool.concurrent ? 'shared' : 'exclusive', ctx.signal);
  const pinned: ToolContext = {
    ...ctx,
    // A tab closed meanwhile (or replaced after a hang) hands over to whatever is active now.
    tab: async () => {
      if (tab.closed) return ctx.tab();
      await tab.session();
      return tab;
    },
  };
  return { ctx: pinned, release };
}
