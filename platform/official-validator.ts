import { randomUUID } from 'node:crypto';

import { z } from 'zod';

import { validationDuration } from './metrics';

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
 * - UN/CEFACT `CrossIndustryInvoice` (D16B, invoice or credit note by its
 *   TypeCode): CEN's EN 16931 CII rules; `document_type` `cii`, `rule_set`
 *   e.g. `eu.cen.en16931:cii:1.3.16`.
 * Anything else (another ApplicationResponse included) has `problem.code`
 * `not_ubl` and `document_type` null; not XML, `not_well_formed`. `valid` is
 * true when no finding is fatal; findings are `[rule] message (at location)`
 * material either way, e.g. `SCH-MLS-23`, `PEPPOL-T111-R007`, `SCH-TSR-05`.
 */

/** The document kinds the validator knows, as its reports name them. */
const OFFICIAL_DOCUMENT_TYPES = ['invoice', 'credit_note', 'invoice_response', 'mls', 'tsr', 'eusr', 'cii'] as const;
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
const laneCountsSchema = z.object({
  permits: z.number(),
  running: z.number(),
  completed: z.number(),
  stopped: z.number(),
  lost: z.number(),
});
const lanesSchema = z.object({ lanes: z.record(z.string(), laneCountsSchema) });

export type OfficialFinding = z.output<typeof findingSchema>;
export type OfficialReport = z.output<typeof reportSchema>;
export type RuleSet = z.output<typeof ruleSetSchema>;

/** Fatal findings (the document may not be sent) and warnings, apart. */
export function splitFindings(findings: OfficialFinding[]): { fatal: OfficialFinding[]; warnings: OfficialFinding[] } {
  return {
    fatal: findings.filter((finding) => finding.severity === 'fatal'),
    warnings: findings.filter((finding) => finding.severity === 'warning'),
  };
}

/** The validator could not give a verdict (down, overloaded, or failing): try again later, never treat as a verdict. */
export class ValidatorUnavailableError extends Error {
  override name = 'ValidatorUnavailableError';
}

/** The validator stopped a validation at its time limit: it killed the worker process running it. */
export class ValidationTimeLimitError extends ValidatorUnavailableError {
  override name = 'ValidationTimeLimitError';
  constructor(
    message: string,
    readonly limitMs: number,
  ) {
    super(message);
  }
}

/** @internal */
export type ValidationLane = 'send' | 'interactive' | 'public' | 'receive' | 'render' | 'view';

interface ValidationOptions {
  /**
   * `interactive` for authenticated requests from outside (a UBL posted to be
   * sent, validation without sending), `public` for the anonymous public
   * validator, `receive` for documents received, `render` for renderings a
   * delivery needs, `view` for renderings asked for (`/pdf`, `/html`): each has
   * permits of its own in the validator, so none can hold the ones another
   * lane needs, the send workflow's validations above all. Default `send`.
   */
  lane?: ValidationLane;
  /** The validation's time limit, waiting for a permit included (default and at most 60 s). */
  limitMs?: number;
  /** Cancels the validation in the validator too, e.g. when the request that asked for it ends. */
  signal?: AbortSignal;
}

/** The languages the renderings' labels, numbers and dates are written in (the validator's render/labels.xml has a column for each). */
const RENDERING_LANGUAGES = ['en', 'de', 'fr', 'nl'] as const;
/** Languages of the human-readable document, per format; a Factur-X is a PDF. */
export const RENDER_LANGUAGES = {
  html: RENDERING_LANGUAGES,
  pdf: RENDERING_LANGUAGES,
  facturx: RENDERING_LANGUAGES,
} as const;
export type RenderFormat = keyof typeof RENDER_LANGUAGES;
export type RenderLanguage<F extends RenderFormat = RenderFormat> = (typeof RENDER_LANGUAGES)[F][number];

/** What a rendering asks for besides a validation's options. */
interface RenderOptions extends ValidationOptions {
  /** Stamped across the top of every page of a PDF (or Factur-X), by the renderer, in the layout's embedded font. */
  notice?: string;
}

/** The renderer takes a UBL Invoice or CreditNote or a CII invoice (a Factur-X only CII); this is its answer to anything else. */
export class NotRenderableError extends Error {
  override name = 'NotRenderableError';
}

export interface OfficialValidator {
  validate(xml: string | Buffer, options?: ValidationOptions): Promise<OfficialReport>;
  /**
   * The UBL invoice or credit note (or CII invoice) as a person reads it, under the same lanes, limits and
   * cancelling as a validation; a `facturx` is the CII's PDF/A-3 with that CII embedded as `factur-x.xml`.
   */
  render(
    document: string | Buffer,
    format: RenderFormat,
    lang: RenderLanguage,
    options?: RenderOptions,
  ): Promise<Buffer>;
  /** The rule set it runs, or undefined when it does not answer (health). */
  ruleSet(timeoutMs?: number): Promise<RuleSet | undefined>;
}

/** A large invoice with attachments takes a few hundred milliseconds; a minute means the document or the service is the problem. */
const MAX_VALIDATION_MS = 60_000;
/** Validations asked from outside stop after this: a valid 1,000-line invoice takes a few seconds. */
export const INTERACTIVE_VALIDATION_MS = 20_000;
/**
 * Renderings asked for stop after this: the PDF of a 1,000-line invoice (the most lines a document
 * may have) took 13 to 30 s on two busy cores (docs/benchmarks.md), in a lane of their own.
 */
export const VIEW_RENDERING_MS = MAX_VALIDATION_MS;
/** The validator answers by its own limit; this much more is the client's margin before it stops waiting. */
const ANSWER_MARGIN_MS = 5_000;

export function officialValidator(baseUrl: string): OfficialValidator {
  return {
    async validate(xml, options = {}) {
      const timer = validationDuration.startTimer({ lane: options.lane ?? 'send' });
      try {
        const report = await validateUnderLane(baseUrl, xml, options);
        timer({ outcome: report.problem?.code ?? (report.valid ? 'valid' : 'invalid') });
        return report;
      } catch (err) {
        timer({ outcome: err instanceof ValidationTimeLimitError ? 'time_limit' : 'unavailable' });
        throw err;
      }
    },

    async render(document, format, lang, { notice, ...options } = {}) {
      const { status, bytes } = await underLane(
        baseUrl,
        '/render',
        { format, lang, ...(notice && { notice }) },
        document,
        options,
      );
      if (status === 422)
        throw new NotRenderableError(z.object({ error: z.string() }).parse(JSON.parse(bytes.toString())).error);
      if (status !== 200) throw unavailable(status, bytes);
      return bytes;
    },

    async ruleSet(timeoutMs = 2_000) {
      const response = await fetch(new URL('/health', baseUrl), { signal: AbortSignal.timeout(timeoutMs) }).catch(
        () => undefined,
      );
      if (!response?.ok) return undefined;
      const parsed = healthSchema.safeParse(await response.json().catch(() => undefined));
      return parsed.success ? parsed.data.rule_set : undefined;
    },
  };
}

/**
 * One piece of work under a lane: posted with an id of its own, so a caller that goes away
 * stops it in the validator too; answered by the validator's own time limit.
 */
async function underLane(
  baseUrl: string,
  path: string,
  query: Record<string, string>,
  body: string | Buffer,
  { lane = 'send', limitMs = MAX_VALIDATION_MS, signal }: ValidationOptions,
) {
  const limit = Math.min(limitMs, MAX_VALIDATION_MS);
  const id = randomUUID();
  const cancel = () => {
    // The caller is gone: stop the work in the validator, so its permit comes back now.
    void fetch(new URL(`/validations/${id}`, baseUrl), { method: 'DELETE', signal: AbortSignal.timeout(5_000) }).catch(
      () => undefined,
    );
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const timeout = AbortSignal.timeout(limit + ANSWER_MARGIN_MS);
    const search = new URLSearchParams({ ...query, lane, id, limit_ms: String(limit) });
    const response = await fetch(new URL(`${path}?${search.toString()}`, baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml' },
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status === 503 && bytes.includes('"stopped":"time_limit"')) {
      throw new ValidationTimeLimitError(
        `the official validator stopped the work at its time limit: ${bytes.subarray(0, 500).toString()}`,
        limit,
      );
    }
    return { status: response.status, bytes };
  } catch (err) {
    if (err instanceof ValidatorUnavailableError) throw err;
    if (!signal?.aborted) cancel();
    throw new ValidatorUnavailableError(
      `the official validator at ${baseUrl} did not answer: ${(err as Error).message}`,
      { cause: err },
    );
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

const unavailable = (status: number, bytes: Buffer) =>
  new ValidatorUnavailableError(`the official validator answered ${status}: ${bytes.subarray(0, 500).toString()}`);

async function validateUnderLane(
  baseUrl: string,
  xml: string | Buffer,
  options: ValidationOptions,
): Promise<OfficialReport> {
  const { status, bytes } = await underLane(baseUrl, '/validate', {}, xml, options);
  if (status !== 200) throw unavailable(status, bytes);
  // Checked rather than trusted: a silent change of its answer would otherwise pass every document.
  const parsed = reportSchema.safeParse(JSON.parse(bytes.toString()));
  if (!parsed.success)
    throw new ValidatorUnavailableError(`the official validator answered in an unknown shape: ${parsed.error.message}`);
  return parsed.data;
}

/** One lane of the validator: its permits, jobs running now, and how many since it started were answered, stopped (time limit, cancel) or lost (their worker died). */
export type LaneReading = { lane: string } & z.output<typeof laneCountsSchema>;

/** What each lane of the validator at `baseUrl` is doing, from its health answer; none when it does not answer. */
export async function validatorLanes(baseUrl: string, timeoutMs = 2_000): Promise<LaneReading[]> {
  const response = await fetch(new URL('/health', baseUrl), { signal: AbortSignal.timeout(timeoutMs) }).catch(
    () => undefined,
  );
  const parsed = lanesSchema.safeParse(response?.ok ? await response.json().catch(() => undefined) : undefined);
  return parsed.success ? Object.entries(parsed.data.lanes).map(([lane, counts]) => ({ lane, ...counts })) : [];
}
