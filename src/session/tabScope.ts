import type { Protocol } from 'devtools-protocol';

/**
 * The tabs one client may see in a browser it shares with others: the tab it was given, the tabs it
 * opened, and the popups those open (as for a person, a popup belongs to whoever's page opened it).
 * The session daemon applies the same rule on its side, so both agree without asking each other.
 */
export class TabScope {
  private readonly owned: Set<string>;

  constructor(initial: Iterable<string> = []) {
    this.owned = new Set(initial);
  }

  /** True for this client's tabs; adopts popups of its tabs as it sees them. */
  owns(info: Pick<Protocol.Target.TargetInfo, 'targetId' | 'openerId'>): boolean {
    if (this.owned.has(info.targetId)) return true;
    if (info.openerId && this.owned.has(info.openerId)) {
      this.owned.add(info.targetId);
      return true;
    }
    return false;
  }

  add(targetId: string): void {
    this.owned.add(targetId);
  }

  get ids(): string[] {
    return [...this.owned];
  }
}
