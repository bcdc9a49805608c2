import { randomUUID } from 'node:crypto';

import { fullIdentifier } from '../../domain/peppol/smp';
import { INVOICE_RESPONSE } from '../../domain/peppol/capabilities';
import { RoutingError, routingOf } from '../../domain/peppol/envelope';
import type { InvoiceResponseContent } from '../../domain/peppol/invoice-response';
import { writeInvoiceResponse } from '../../domain/ubl/application-response';
import type { Environment } from '../../domain/environment';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { pageOf } from '../paging';
import { takeInbound, type Intake, type IntakeDependencies } from './intake';

/**
 * The sandbox's stand-in for a buyer: the Invoice Response a buyer would
 * send about a sent sandbox document, written as the UBL a buyer's access
 * point would carry (writeInvoiceResponse) and taken in by the same intake
 * and receive workflow as a response arriving on Peppol, so
 * `document.response_received` reaches webhooks without a network.
 */

/** Stand-in party for a buyer the sent UBL gives no electronic address (sandbox documents go by email). */
const UNADDRESSED_BUYER = '0088:0000000000000';

export async function simulateBuyerResponse(
  deps: IntakeDependencies,
  document: DocumentRow & { _id: string },
  company: { peppol_id?: string | null | undefined; name: string },
  content: InvoiceResponseContent,
): Promise<Intake> {
  const stored = await deps.store.contents.findById(document._id, { ubl: 1, input: 1 }).lean();
  let buyer = UNADDRESSED_BUYER;
  let seller = company.peppol_id ?? null;
  try {
    const routing = routingOf(stored?.ubl ?? '');
    buyer = routing.receiver;
    seller = routing.sender;
  } catch (err) {
    if (!(err instanceof RoutingError)) throw err;
  }
  const input = (stored?.input ?? {}) as { to?: { name?: string } };
  const receivedAt = new Date();
  const ubl = writeInvoiceResponse({
    id: `SANDBOX-${randomUUID()}`,
    issueDate: receivedAt.toISOString().slice(0, 10),
    sender: { participantId: buyer, name: input.to?.name ?? 'Sandbox buyer' },
    receiver: { participantId: seller ?? UNADDRESSED_BUYER, name: company.name },
    content,
    reference: {
      id: document.number,
      issueDate: document.issue_date,
      typeCode: document.type === 'credit_note' ? '381' : '380',
    },
  });
  return takeInbound(
    deps,
    {
      source: 'sandbox',
      messageId: `${randomUUID()}@sandbox.einvoice`,
      senderId: buyer,
      receiverId: seller ?? '',
      documentTypeId: fullIdentifier(INVOICE_RESPONSE.documentType),
      processId: fullIdentifier(INVOICE_RESPONSE.process),
      countryC1: null,
      accessPoint: null,
      accessPointCertificate: null,
      payload: Buffer.from(ubl, 'utf8'),
      receivedAt,
    },
    { companyId: document.company_id, workspaceId: document.workspace_id, environment: 'sandbox' },
  );
}

/** A company's received Invoice Responses that matched none of its sent documents, newest first. */
export async function listUnmatchedResponses(
  store: Store,
  query: { companyId: string; environment: Environment; limit: number; before?: string | undefined },
) {
  const rows = await store.invoiceResponses
    .find(
      {
        company_id: query.companyId,
        environment: query.environment,
        direction: 'received',
        document_id: null,
        ...(query.before && { _id: { $lt: query.before } }),
      },
      { ubl: 0 },
    )
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .lean();
  return pageOf(rows, query.limit);
}
