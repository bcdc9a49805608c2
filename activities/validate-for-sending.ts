import type { Logger } from '../platform/logger';
import { channelOf } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';
import { officialValidation, type OfficialVerdict } from './official-validation';
import { pdfRendering } from './rendered-pdf';

/** Whether the sandbox email's PDF is ready: `not needed` for a refused or a live document. */
type ReadablePdfOutcome = 'rendered' | 'without' | 'not needed';

/** @internal */
export interface SendingVerdict extends OfficialVerdict {
  readablePdf: ReadablePdfOutcome;
}

interface SendingPreparation {
  validate: (documentId: string) => Promise<OfficialVerdict>;
  deliversByEmail: (documentId: string) => Promise<boolean>;
  renderReadablePdf: (documentId: string) => Promise<{ rendered: boolean }>;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The verdict first: a validator that cannot answer throws, and the step's retry policy asks again. Then, for a
 * document the rules accept that goes by email, its PDF, once and best effort: the UBL is the document, and no
 * failure of its reading may fail, retry or delay the send beyond the renderer's own limit.
 * @internal
 */
export function validateForSendingWith({ validate, deliversByEmail, renderReadablePdf, logger }: SendingPreparation) {
  return async (documentId: string): Promise<SendingVerdict> => {
    const verdict = await validate(documentId);
    if (verdict.refusal !== null || !(await deliversByEmail(documentId)))
      return { ...verdict, readablePdf: 'not needed' };
    try {
      const { rendered } = await renderReadablePdf(documentId);
      return { ...verdict, readablePdf: rendered ? 'rendered' : 'without' };
    } catch (err) {
      logger.warn({ err, documentId }, 'the sandbox email goes without a PDF: the rendering did not succeed');
      return { ...verdict, readablePdf: 'without' };
    }
  };
}

/**
 * The send workflow's step before sending, since it became one activity (two before: the verdict, then the
 * email's PDF after the move to sending; each an activity task and a workflow task of its own).
 */
export function validateForSendingActivities(deps: Pick<ActivityDependencies, 'store' | 'validator' | 'logger'>) {
  const validation = officialValidation(deps);
  const rendering = pdfRendering(deps);
  return {
    validateForSending: validateForSendingWith({
      validate: (documentId) => validation.validateOfficially(documentId),
      renderReadablePdf: (documentId) => rendering.renderReadablePdf(documentId),
      deliversByEmail: async (documentId) => {
        const document = await deps.store.documents.findById(documentId, { environment: 1 }).lean();
        return document !== null && channelOf(document.environment) === 'email';
      },
      logger: deps.logger,
    }),
  };
}
