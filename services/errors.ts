import type { KycRefusalCode } from '../domain/kyc/verification';

/**
 * A business rule refused an operation. The code is the API's error code for
 * it (api/http/errors.ts gives each its status); services raise these, the API
 * turns them into the envelope.
 */
export type RuleCode =
  | 'last_owner'
  | 'workspace_not_deletable'
  | 'already_member'
  | 'member_not_found'
  | 'account_not_found'
  | 'email_taken'
  | 'insufficient_role'
  | 'key_limit_reached'
  | 'webhook_url_not_allowed'
  | 'delivery_not_redeliverable'
  | 'workspace_not_found'
  | 'workspace_not_verified'
  | 'workspace_suspended'
  | 'sender_not_verified'
  | KycRefusalCode
  | 'kyc_locked'
  | 'kyc_document_not_found'
  | 'kyc_not_submittable'
  | 'provider_update_failed'
  | 'receiver_not_registered'
  | 'response_not_allowed'
  | 'sender_cannot_receive_responses';

/** The one place the role rule's refusal is worded (the API's authorization and the workspace rules both use it). */
export function insufficientRole(role: string, allowed: readonly string[], action: string): RuleError {
  return new RuleError(
    'insufficient_role',
    `Only ${allowed.join(' or ')} may ${action}; your role in this workspace is ${role}.`,
  );
}

/** The one place a workspace is not found: gone, or not visible to the caller, answer alike. */
export function workspaceNotFound(workspaceId: string): RuleError {
  return new RuleError('workspace_not_found', `No workspace ${workspaceId} is visible to this account.`, {
    param: 'id',
  });
}

export class RuleError extends Error {
  override name = 'RuleError';
  constructor(
    readonly code: RuleCode,
    message: string,
    readonly options: { param?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
}

/** A RuleError as plain data, to cross a workflow's history (an update's answer) and be raised again where it is answered. */
export interface RuleRefusal {
  code: RuleCode;
  message: string;
  options: { param?: string; details?: Record<string, unknown> };
}

export const refusalOf = (err: RuleError): RuleRefusal => ({
  code: err.code,
  message: err.message,
  options: err.options,
});

export const ruleErrorFrom = (refusal: RuleRefusal): RuleError =>
  new RuleError(refusal.code, refusal.message, refusal.options);
