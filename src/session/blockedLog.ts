// What the request guard refused, kept for the results that name it: the last KEEP_BLOCKED, numbered in order.
import { fenceInline } from '../base/untrusted';
import type { RequestVerdict } from './requestRules';

export interface BlockedRequest extends RequestVerdict {
  url: string;
  /** CDP resource type: Document, Script, Image, Fetch, XHR, Ping, WebSocket, Other… */
  resourceType: string;
  /** A top-level or frame navigation (a document request). */
  navigation: boolean;
  /** The target (page, iframe, worker) the request came from. */
  targetId: string;
  /** The frame it belongs to; equals `targetId` for the main frame of a page. */
  frameId?: string;
  seq: number;
  /** Set by whoever told the model about it (so the session's own notes do not repeat it). */
  reported?: boolean;
}

const KEEP_BLOCKED = 200;

export class BlockedLog {
  private readonly entries: BlockedRequest[] = [];
  private seq = 0;

  /** A mark to ask later what was blocked since (`since`). */
  mark(): number {
    return this.seq;
  }

  since(mark: number, targetIds?: Iterable<string>): BlockedRequest[] {
    const ids = targetIds ? new Set(targetIds) : undefined;
    return this.entries.filter((b) => b.seq > mark && (!ids || ids.has(b.targetId)));
  }

  /** The last block of `url` since `mark` (for a navigation that failed with ERR_BLOCKED_BY_CLIENT). */
  lastFor(url: string, mark = 0): BlockedRequest | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const b = this.entries[i];
      if (b.seq <= mark) break;
      if (b.url === url || b.url.replace(/#.*$/, '') === url.replace(/#.*$/, '')) return b;
    }
    return undefined;
  }

  record(targetId: string, verdict: RequestVerdict, url: string, resourceType: string, frameId?: string): BlockedRequest {
    const entry: BlockedRequest = { ...verdict, url, resourceType, navigation: resourceType === 'Document', targetId, frameId, seq: ++this.seq };
    this.entries.push(entry);
    if (this.entries.length > KEEP_BLOCKED) this.entries.splice(0, this.entries.length - KEEP_BLOCKED);
    return entry;
  }
}

/** One line for the model per blocked request: what, where, which rule. */
export function describeBlocked(b: BlockedRequest): string {
  const what = b.navigation ? 'navigation' : `${RESOURCE_WORDS[b.resourceType] ?? b.resourceType.toLowerCase()} request`;
  // The URL is the page's (a script can put any words into a path): fenced like other page text.
  return `BLOCKED_BY_POLICY: ${/^([aeiou]|XHR)/i.test(what) ? 'an' : 'a'} ${what} to ${fenceInline(b.url)} was stopped before it was sent (rule ${b.rule}: ${b.reason}).`;
}

/** CDP resource types as a reader says them. */
const RESOURCE_WORDS: Record<string, string> = { XHR: 'XHR', Fetch: 'fetch', Ping: 'beacon', EventSource: 'EventSource', WebSocket: 'WebSocket', CSPViolationReport: 'report', Other: 'other' };
