import type { KycDecision } from './shared';

/**
 * Whether a review signal's payload decides anything: `{"decision": "approve" | "reject", "reason"?, "operator"?}`.
 * Signals come from the ops CLI and from people typing them in the Web UI, so the shape is checked.
 */
export function isReviewDecision(input: unknown): input is KycDecision {
  const optionalText = (value: unknown) => value === undefined || value === null || typeof value === 'string';
  const { decision, reason, operator } = (input ?? {}) as Partial<Record<keyof KycDecision, unknown>>;
  return (decision === 'approve' || decision === 'reject') && optionalText(reason) && optionalText(operator);
}
