/** How an action is treated: run, run and tell, ask first, or refuse. */
export type RiskLevel = 'auto' | 'notify' | 'confirm' | 'block';

export interface Rating {
  level: RiskLevel;
  /** Id of the rule that fired, e.g. `sensitive-url`, `always-confirm:browser_evaluate`. */
  rule?: string;
  /** Plain words for a person: why it was flagged. */
  reason?: string;
}

/** What finally happened with a rated action (recorded in the audit log). */
/** `needs-confirmation`: the action must be confirmed and this front door cannot ask anyone (an MCP client without elicitation). */
export type DecisionOutcome = 'auto' | 'notified' | 'allowed' | 'refused' | 'blocked' | 'needs-confirmation';

export interface Decision {
  rating: Rating;
  outcome: DecisionOutcome;
}
