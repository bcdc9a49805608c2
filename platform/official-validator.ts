import { randomUUID } from 'node:crypto';

import { z } from 'zod';

/**
 * Client of the official validator service (validator/): the official Peppol
 * rule sets run by phive in a JVM that keeps them compiled. The API calls it
 * for the public validator and its health; the send workflow's validating
 * step calls it before every send.
 *
 * `validate(bytes)` picks the rule set by the document itself and answers
 * the same report for every kind:
 * - UBL `Invoice` / `CreditNote`: Peppol BIS Billing 3.0, national rules
 *   included; `document_type` `invoice` / `credit_note`, `rule_set` the
 *   release (`eu.peppol.bis3:2026.5`).
 * - UBL `ApplicationResponse` whose CustomizationID starts with
 *   `urn:fdc:peppol.eu:poacc:trns:invoice_response:3`: Invoice Response
 *   (T111); `document_type` `invoice_response`, `rule_set` e.g.
 *   `eu.peppol.bis3:invoice-message-response:2026.5`.
 * - UBL `ApplicationResponse` with CustomizationID `urn:peppol:edec:mls:1.0`:
 *   Message Level Status; `document_type` `mls`, `rule_set` `org.peppol:mls:1`.
 * - `TransactionStatisticsReport` (TSR 1.0) / `EndUserStatisticsReport`
 *   (EUSR 1.1): `document_type` `tsr` / `eusr`, `rule_set` e.g.
 *   `eu.peppol.reporting:tsr:1.0.5`.
 * Anything else (another ApplicationResponse included) has `problem.code`
 * `not_ubl` and `document_type` null; not XML, `not_well_formed`. `valid` is
 * true when no finding is fatal; findings are `[rule] message (at location)`
 * material either way, e.g. `SCH-MLS-23`, `PEPPOL-T111-R007`, `SCH-TSR-05`.
 */

/** The document kinds the validator knows, as its reports name them. */
export const OFFICIAL_DOCUMENT_TYPES = ['invoice', 'credit_note', 'invoice_response', 'mls', 'tsr', 'eusr'] as const;
export type OfficialDocumentType = (typeof OFFICIAL_DOCUMENT_TYPES)[number];

const findingSchema = z.object({
  rule: z.string(),
  severity: z.enum(['fatal', 'warning']),
  location: z.string(),
  message: z.string(),
});

const reportSchema = z.object({
  rule_set: z.string(),
  document_type: z.enum(OFFICIAL_DOCUMENT_TYPES).nullable(),
  problem: z.object({ code: z.enum(['not_well_formed', 'not_ubl']), message: z.string() }).nullable(),
  valid: z.boolean(),
  findings: z.array(findingSchema),
});

const ruleSetSchema = z.object({ id: z.string(), name: z.string(), valid_from: z.string().nullable() });
const healthSchema = z.object({ status: z.literal('ok'), rule_set: ruleSetSchema });

export type OfficialFinding = z.output<typeof findingSchema>;
export type OfficialReport = z.output<typeof reportSchema>;
export type RuleSet = z.output<typeof ruleSetSchema>;

/** Fatal findings (the document may not be sent) and warnings, apart. */
export function splitFindings(findings: OfficialFinding[]): { fatal: OfficialFinding[]; warnings: OfficialFinding[] } {
  return { fatal: findings.filter((finding) => finding.severity === 'fatal'), warnings: findings.filter((finding) => finding.severity === 'warning') };
}

/** The validator could not give a verdict (down, overloaded, or failing): try again later, never treat as a verdict. */
export class ValidatorUnavailableError extends Error {
  override name = 'ValidatorUnavailableError';
}

/** The validator stopped a validation at its time limit (or because it was cancelled). */
export class ValidationTimeLimitError extends ValidatorUnavailableError {
  override name = 'ValidationTimeLimitError';
  constructor(
    message: string,
    readonly limitMs: number,
  ) {
    super(message);
  }
}

export const VALIDATION_LANES = ['send', 'interactive', 'receive'] as const;
export type ValidationLane = (typeof VALIDATION_LANES)[number];

export interface ValidationOptions {
  /**
   * `interactive` for requests from outside (the public validator, validation
   * without sending), `receive` for documents received: each has permits of
   * its own in the validator, so neither can hold the ones the send workflow
   * needs. Default `send`.
   */
  lane?: ValidationLane;
  /** The validation's time limit, waiting for a permit included (default and at most 60 s). */
  limitMs?: number;
  /** Cancels the validation in the validator too, e.g. when the request that asked for it ends. */
  signal?: AbortSignal;
}

export interface OfficialValidator {
  validate(xml: string | Buffer, options?: ValidationOptions): Promise<OfficialReport>;
  /** The rule set it runs, or undefined when it does not answer (health). */
  ruleSet(timeoutMs?: number): Promise<RuleSet | undefined>;
}

/** A large invoice with attachments takes a few hundred milliseconds; a minute means the document or the service is the problem. */
export const MAX_VALIDATION_MS = 60_000;
/** Validations asked from outside stop after this: a valid 1,000-line invoice takes a few seconds. */
export const INTERACTIVE_VALIDATION_MS = 20_000;
/** The validator answers by its own limit; this much more is the client's margin before it stops waiting. */
const ANSWER_MARGIN_MS = 5_000;

export function officialValidator(baseUrl: string): OfficialValidator {
  const url = (path: string) => new URL(path, baseUrl).toString();

  return {
    async validate(xml, { lane = 'send', limitMs = MAX_VALIDATION_MS, signal } = {}) {
      const limit = Math.min(limitMs, MAX_VALIDATION_MS);
      const id = randomUUID();
      const cancel = () => {
        // The caller is gone: stop the work in the validator, so its permit comes back now.
        void fetch(url(`/validations/${id}`), { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
      };
      signal?.addEventListener('abort', cancel, { once: true });
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(limit + ANSWER_MARGIN_MS);
        response = await fetch(url(`/validate?lane=${lane}&id=${id}&limit_ms=${limit}`), {
          method: 'POST',
          headers: { 'Content-Type': 'application/xml' },
          body: xml,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        text = await response.text();
      } catch (err) {
        if (!signal?.aborted) cancel();
        throw new ValidatorUnavailableError(`the official validator at ${baseUrl} did not answer: ${(err as Error).message}`, { cause: err });
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
      if (response.status === 503 && text.includes('"stopped":"time_limit"')) {
        throw new ValidationTimeLimitError(`the official validator stopped the validation at its time limit: ${text.slice(0, 500)}`, limit);
      }
      if (!response.ok) throw new ValidatorUnavailableError(`the official validator answered ${response.status}: ${text.slice(0, 500)}`);
      // Checked rather than trusted: a silent change of its answer would otherwise pass every document.
      const parsed = reportSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new ValidatorUnavailableError(`the official validator answered in an unknown shape: ${parsed.error.message}`);
      return parsed.data;
    },

    async ruleSet(timeoutMs = 2_000) {
      const response = await fetch(url('/health'), { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
      if (!response?.ok) return undefined;
      const parsed = healthSchema.safeParse(await response.json().catch(() => undefined));
      return parsed.success ? parsed.data.rule_set : undefined;
    },
  };
}
