import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { TargetFingerprint, ToolContext } from '../contract/types';
import type { BrowserObserver, TabObserver } from './observer';

/** Everything one action needs: the browser, the tab it acts in, its page session and observers. */
export interface Scope {
  ctx: ToolContext;
  browser: BrowserSession;
  tab: Tab;
  page: CdpSession;
  tabObs: TabObserver;
  browserObs: BrowserObserver;
  /**
   * Set by an operation just before it sends input: what it is doing. If the input opens a
   * JavaScript dialog, the browser holds the input call until the dialog is answered, so the
   * result is composed from this instead.
   */
  pending?: ActionOutcome;
  /** Set when the tab's page was hung and had to be stopped before the action: what was done. */
  recovered?: string;
}

export interface ActionOutcome {
  /** Past tense, one line: `Clicked button "Submit"`. */
  text: string;
  target?: TargetFingerprint;
  /** Extra lines (e.g. per-field results of a form fill). */
  details?: string[];
  /** Page-derived lines for the result's one fence (`URL: /a`): never page text in `text` or `details`. */
  page?: string[];
  /**
   * A look at the page once it settled (whether the form the action submitted was refused): its line joins the
   * details. Run after the action, not in it: input the page is slow to answer must not count as a hang.
   */
  afterSettle?: () => Promise<string | undefined>;
}
