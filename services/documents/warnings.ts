import type { DocumentInput } from '../../domain/documents/input';
import { unusualRateWarnings } from '../../domain/documents/vat-rates';
import { duplicateNumber, type DocumentWarning } from '../../domain/documents/warning';
import type { Environment } from '../../domain/environment';
import type { Store } from '../../store';

export interface SendingScope {
  companyId: string;
  environment: Environment;
}

/**
 * `duplicate_number` when the company already sent a document of this type
 * with this number (in this environment): a warning, not a refusal, since a
 * person may mean it; a retry is made safe by an idempotency key instead.
 * `acceptedId` is the document's own id once accepted: only documents accepted
 * before it count, so an idempotent replay is never its own duplicate.
 * Served by the index on company, environment, number and id.
 */
async function duplicateNumberWarnings(
  store: Store,
  document: DocumentInput,
  scope: SendingScope,
  acceptedId: string | undefined,
): Promise<DocumentWarning[]> {
  const earlier = await store.documents
    .findOne(
      {
        company_id: scope.companyId,
        environment: scope.environment,
        number: document.number,
        type: document.type,
        // Rows from before receiving have no direction: every one of them was sent.
        direction: { $ne: 'received' },
        ...(acceptedId && { _id: { $lt: acceptedId } }),
      },
      { _id: 1 },
    )
    .sort({ _id: -1 })
    .lean();
  return earlier ? [duplicateNumber(document.type, document.number, earlier._id)] : [];
}

/** What looks odd about a document the checks let pass (company defaults applied): unusual VAT rates, a number used before. */
export async function documentWarnings(
  store: Store,
  document: DocumentInput,
  scope: SendingScope,
  acceptedId?: string,
): Promise<DocumentWarning[]> {
  return [...unusualRateWarnings(document), ...(await duplicateNumberWarnings(store, document, scope, acceptedId))];
}
