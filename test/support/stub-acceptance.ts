import type { AcceptanceOutcome, DocumentAcceptance } from '../../domain/documents/acceptance';

/**
 * A send workflow's acceptance where its first step is stubbed (the workflow tests, the benchmark's no-op floor):
 * only the document id is read; the rest of the row is what the API would make, left empty.
 */
export const stubAcceptance = (documentId: string): DocumentAcceptance => ({
  row: { _id: documentId, idempotency_scope: `stub:${documentId}` } as DocumentAcceptance['row'],
  acceptedAt: '2026-11-23T10:00:00.000Z',
  charge: null,
  message: 'Accepted (stubbed first step)',
});

/** The stubbed first step: the document recorded. */
export const recordedAsAccepted = (acceptance: DocumentAcceptance): Promise<AcceptanceOutcome> =>
  Promise.resolve({ outcome: 'accepted', documentId: acceptance.row._id, balanceUnits: null });
