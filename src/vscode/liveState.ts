import type { SessionStatus } from '../session/manager';

/** What a live view says about itself, so a stale picture never looks live (pure, unit-tested). */
export interface LiveState {
  /** True only while frames come from a connected browser. */
  live: boolean;
  /** The badge: Live, Starting…, Disconnected, No browser. */
  label: string;
  /** One sentence under a stale picture. */
  note: string;
  url?: string;
}

export function liveState(s: SessionStatus): LiveState {
  switch (s.state) {
    case 'connected':
      return { live: true, label: s.kind === 'attached' ? 'Live · your browser' : 'Live', note: '', url: s.tabUrl };
    case 'starting':
      return { live: false, label: s.kind === 'launched' ? 'Launching…' : 'Attaching…', note: 'Waiting for the browser to connect.' };
    case 'disconnected':
      if (s.failed) return { live: false, label: 'No browser', note: `Not live: the browser could not ${s.failed === 'launched' ? 'launch' : 'attach'}: ${s.reason}` };
      return { live: false, label: 'Disconnected', note: `Not live: ${s.reason}. The browser is started again on the next task, or use Launch Browser.` };
    case 'none':
      return { live: false, label: 'No browser', note: 'Not live: no browser is running. Launch or attach one, or run a task.' };
  }
}
