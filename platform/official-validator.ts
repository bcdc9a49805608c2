import { z } from 'zod';

/**
 * Client of the official validator service (validator/): the Peppol BIS
 * Billing 3.0 artefacts, national rule sets included, run by phive in a JVM
 * that keeps them compiled. The API calls it for the public validator and its
 * health; the send workflow's validating step calls it before every send.
 */

const findingSchema = z.object({
  rule: z.string(),
  severity: z.enum(['fatal', 'warning']),
  location: z.string(),
  message: z.string(),
});

const reportSchema = z.object({
  rule_set: z.string(),
  document_type: z.enum(['invoice', 'credit_note']).nullable(),
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

export interface OfficialValidator {
  validate(xml: string | Buffer): Promise<OfficialReport>;
  /** The rule set it runs, or undefined when it does not answer (health). */
  ruleSet(timeoutMs?: number): Promise<RuleSet | undefined>;
}

/** A large invoice with attachments takes a few hundred milliseconds; a minute means the service is stuck. */
const VALIDATION_TIMEOUT_MS = 60_000;

export function officialValidator(baseUrl: string): OfficialValidator {
  const url = (path: string) => new URL(path, baseUrl).toString();

  return {
    async validate(xml) {
      let response: Response;
      try {
        response = await fetch(url('/validate'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/xml' },
          body: xml,
          signal: AbortSignal.timeout(VALIDATION_TIMEOUT_MS),
        });
      } catch (err) {
        throw new ValidatorUnavailableError(`the official validator at ${baseUrl} did not answer: ${(err as Error).message}`, { cause: err });
      }
      const text = await response.text();
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
