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
export type DecisionOutcome = 'auto' | 'notified' | 'allowed' | 'refused' | 'blocked';

export interface Decision {
  rating: Rating;
  outcome: DecisionOutcome;
}
