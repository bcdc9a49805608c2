import { documentInputSchema } from '../../domain/documents/input';
import { idPattern } from '../../domain/ids';
import type { Store } from '../../store';
import { DOCUMENT_STATUSES } from '../../store/documents';
import { requireDocument, requireDocumentCompany } from '../access';
import { decodeCursor, encodeCursor } from '../cursor';
import { submitDocument, validateOnly, type SubmissionContext } from '../document-submission';
import { ApiError } from '../errors';
import { z } from '../openapi';
import type { RouteTable } from '../route';
import { resourceId } from '../schemas';
import { invalidField } from '../validation';

const MAX_BATCH = 100;

const accepted = z
  .object({
    id: z.string().openapi({ example: 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    url: z.string().openapi({ description: 'Where to read the document' }),
    status: z.enum(DOCUMENT_STATUSES),
  })
  .openapi('DocumentAccepted');

const violation = z.object({ path: z.string(), rule: z.string().nullable(), message: z.string() }).openapi('DocumentViolation');

const totals = z.object({
  line_extension: z.string(),
  allowance_total: z.string(),
  charge_total: z.string(),
  tax_exclusive: z.string(),
  tax: z.string(),
  tax_inclusive: z.string(),
  prepaid: z.string(),
  payable: z.string(),
});

const attachmentMeta = z
  .object({ id: z.string(), filename: z.string(), mime_type: z.string(), description: z.string().nullable(), size_bytes: z.number().int(), sha256: z.string() })
  .openapi('DocumentAttachment');

const documentSummary = z
  .object({
    id: z.string(),
    company_id: z.string(),
    type: z.enum(['invoice', 'credit_note']),
    number: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    currency: z.string(),
    payable: z.string().openapi({ description: 'Amount due, as a decimal string' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentSummary');

const documentSchema = documentSummary
  .extend({
    workspace_id: z.string(),
    issue_date: z.string(),
    due_date: z.string().nullable(),
    recipient_email: z.string().nullable(),
    totals,
    error_message: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    sent_at: z.string().nullable(),
    message_id: z.string().nullable().openapi({ description: 'Message-ID of the sandbox delivery email' }),
    ubl_url: z.string().nullable().openapi({ description: 'Download of the sent UBL; null until sent' }),
    attachments: z.array(attachmentMeta),
  })
  .openapi('Document');

const historyEntry = z
  .object({
    step: z.enum(['created', 'validated', 'queued', 'in_transit', 'delivered', 'failed']),
    status: z.enum(DOCUMENT_STATUSES),
    message: z.string().nullable(),
    error_message: z.string().nullable(),
    event: z.object({ id: z.string(), type: z.string() }).nullable().openapi({ description: 'The lifecycle event this step raised' }),
    at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentHistoryEntry');

const documentParams = z.object({ id: resourceId('document', 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp') });
const errorEntry = z.object({ error: z.record(z.string(), z.unknown()) }).openapi('BatchError');

interface DocumentRow {
  _id: string;
  company_id: string;
  type: 'invoice' | 'credit_note';
  number: string;
  status: (typeof DOCUMENT_STATUSES)[number];
  currency: string;
  totals: unknown;
  created_at: Date;
  updated_at: Date;
}

function attachmentView(attachment: { _id: string; filename: string; mime_type: string; description?: string | null; size_bytes: number; sha256: string }) {
  return {
    id: attachment._id,
    filename: attachment.filename,
    mime_type: attachment.mime_type,
    description: attachment.description ?? null,
    size_bytes: attachment.size_bytes,
    sha256: attachment.sha256,
  };
}

function summaryOf(document: DocumentRow) {
  return {
    id: document._id,
    company_id: document.company_id,
    type: document.type,
    number: document.number,
    status: document.status,
    currency: document.currency,
    payable: (document.totals as { payable: string }).payable,
    created_at: document.created_at.toISOString(),
    updated_at: document.updated_at.toISOString(),
  };
}

export function documentRoutes(routes: RouteTable, store: Store, context: SubmissionContext): void {
  routes.add({
    method: 'post',
    path: '/v1/documents',
    operationId: 'sendDocument',
    summary: 'Validate, convert to Peppol BIS Billing 3.0 UBL, queue and send a document',
    description:
      'Answers 202 once the document is stored and queued; delivery is asynchronous (sandbox: email; live: Peppol). ' +
      'The same `Idempotency-Key` header or `idempotency_key` for the same company answers 200 with the first document and sends nothing again. ' +
      'A refused document gets 422 `document_invalid` with `details.violations`: every problem, each with its JSON path, the EN 16931 / Peppol rule id where one applies, and a message.',
    tags: ['Documents'],
    unparsedBody: documentInputSchema,
    responses: {
      202: { description: 'Accepted and queued; `Location` is the document', schema: accepted, headers: { Location: { description: 'The document', schema: { type: 'string' } } } },
      200: { description: 'Idempotent replay: the first document with this key', schema: accepted },
    },
    errors: ['missing_field', 'invalid_field', 'not_company_member', 'workspace_not_verified', 'document_invalid'],
    handler: async ({ auth, body, req }) => {
      const submitted = await submitDocument(context, auth, req.origin, body, req.get('Idempotency-Key'));
      return { status: submitted.status, body: submitted.body, headers: { Location: submitted.body.url } };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/documents/batch',
    operationId: 'sendDocumentBatch',
    summary: 'Send up to 100 documents of one company, each processed on its own',
    description:
      'Answers 202 with an array in the order sent: each entry is a DocumentAccepted or `{error}` (the envelope of that document). ' +
      'The `Idempotency-Key` header has no effect here; set `idempotency_key` per document.',
    tags: ['Documents'],
    unparsedBody: z.array(documentInputSchema).max(MAX_BATCH),
    responses: { 202: { description: 'One result per document, same order', schema: z.array(z.union([accepted, errorEntry])) } },
    errors: ['invalid_field', 'batch_too_large', 'not_company_member'],
    handler: async ({ auth, body, req }) => {
      if (!Array.isArray(body) || body.length === 0) throw invalidField('body', 'Send a JSON array of 1 to 100 documents.');
      if (body.length > MAX_BATCH) throw new ApiError('batch_too_large', `A batch holds at most ${MAX_BATCH} documents; this one has ${body.length}.`);
      const companies = new Set(body.map((entry: unknown) => (entry as { company_id?: unknown } | null)?.company_id));
      if (companies.size !== 1) throw invalidField('[].company_id', 'Every document of a batch must have the same company_id.');
      await requireDocumentCompany(store, auth, String([...companies][0]));
      const results = [];
      for (const entry of body as unknown[]) {
        try {
          results.push((await submitDocument(context, auth, req.origin, entry, undefined)).body);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          results.push(err.toEnvelope());
        }
      }
      return { status: 202, body: results };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/documents/validate',
    operationId: 'validateDocument',
    summary: 'Run the same checks and conversion as sending, without storing, charging or sending',
    tags: ['Documents'],
    unparsedBody: documentInputSchema,
    responses: {
      200: {
        description: 'The verdict: the UBL when valid, every violation when not',
        schema: z
          .object({ valid: z.boolean(), violations: z.array(violation), ubl: z.string().nullable(), totals: z.record(z.string(), z.string()).nullable() })
          .openapi('DocumentValidation'),
      },
    },
    errors: ['missing_field', 'invalid_field', 'not_company_member', 'workspace_not_verified'],
    handler: async ({ auth, body }) => ({ status: 200, body: await validateOnly(context, auth, body) }),
  });

  routes.add({
    method: 'get',
    path: '/v1/documents',
    operationId: 'listDocuments',
    summary: 'Documents of a company, newest first',
    tags: ['Documents'],
    query: z
      .object({
        company_id: resourceId('company', 'com_2Hk9LmQ4rT7vW0xY3zA6bC8d'),
        status: z.enum(DOCUMENT_STATUSES).optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1 to 100, default 20' }),
        cursor: z.string().max(200).optional().openapi({ description: 'Opaque `next_cursor` of the previous page' }),
      })
      .strict(),
    responses: {
      200: {
        description: 'A page of documents',
        schema: z.object({ data: z.array(documentSummary), has_more: z.boolean(), next_cursor: z.string().nullable() }).openapi('DocumentList'),
      },
    },
    errors: ['missing_field', 'invalid_field', 'not_company_member'],
    handler: async ({ auth, query }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const before = decodeCursor(query.cursor, idPattern('document'));
      const rows = await store.documents
        .find({ company_id: query.company_id, ...(query.status && { status: query.status }), ...(before && { _id: { $lt: before } }) })
        .sort({ _id: -1 })
        .limit(query.limit + 1)
        .lean();
      const page = rows.slice(0, query.limit);
      const hasMore = rows.length > query.limit;
      return {
        status: 200,
        body: { data: page.map(summaryOf), has_more: hasMore, next_cursor: hasMore ? encodeCursor(page[page.length - 1]!._id) : null },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/documents/{id}',
    operationId: 'getDocument',
    summary: 'A document with its status, totals and attachments',
    tags: ['Documents'],
    params: documentParams,
    query: z.object({ company_id: resourceId('company', 'com_2Hk9LmQ4rT7vW0xY3zA6bC8d') }).strict(),
    responses: { 200: { description: 'The document', schema: documentSchema } },
    errors: ['missing_field', 'invalid_field', 'not_company_member', 'document_not_found'],
    handler: async ({ auth, params, query, req }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const document = await requireDocument(store, auth, params.id, query.company_id);
      const attachments = await store.attachments.find({ document_id: document._id }).sort({ position: 1 }).lean();
      const input = document.input as { issue_date: string; due_date?: string };
      return {
        status: 200,
        body: {
          ...summaryOf(document),
          workspace_id: document.workspace_id,
          issue_date: input.issue_date,
          due_date: input.due_date ?? null,
          recipient_email: document.recipient_email ?? null,
          totals: document.totals as Record<string, string>,
          error_message: document.error_message ?? null,
          idempotency_key: document.idempotency_key ?? null,
          sent_at: document.sent_at?.toISOString() ?? null,
          message_id: document.message_id ?? null,
          ubl_url: document.sent_at ? `${req.origin}/v1/documents/${document._id}/ubl` : null,
          attachments: attachments.map(attachmentView),
        },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/history',
    operationId: 'getDocumentHistory',
    summary: 'Delivery history: created, validated, queued, in transit, delivered or failed',
    tags: ['Documents'],
    params: documentParams,
    responses: { 200: { description: 'History entries, oldest first', schema: z.array(historyEntry) } },
    errors: ['invalid_field', 'document_not_found'],
    handler: async ({ auth, params }) => {
      const document = await requireDocument(store, auth, params.id);
      const order = ['created', 'validated', 'queued', 'in_transit', 'delivered', 'failed'];
      const entries = await store.history.find({ document_id: document._id }).lean();
      entries.sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step));
      return {
        status: 200,
        body: entries.map((entry) => ({
          step: entry.step,
          status: entry.status,
          message: entry.message ?? null,
          error_message: entry.error_message ?? null,
          event: entry.event_id && entry.event_type ? { id: entry.event_id, type: entry.event_type } : null,
          at: entry.created_at.toISOString(),
        })),
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/ubl',
    operationId: 'getDocumentUbl',
    summary: 'The UBL exactly as it was sent (404 until sent)',
    tags: ['Documents'],
    params: documentParams,
    responses: { 200: { description: 'Peppol BIS Billing 3.0 UBL', schema: z.string(), contentType: 'application/xml' } },
    errors: ['invalid_field', 'document_not_found', 'ubl_not_available'],
    handler: async ({ auth, params, res }) => {
      const document = await requireDocument(store, auth, params.id);
      if (!document.sent_at) throw new ApiError('ubl_not_available', `Document ${document._id} has not been sent yet (status ${document.status}).`);
      res.status(200).type('application/xml').send(document.ubl);
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/attachments',
    operationId: 'listDocumentAttachments',
    summary: 'Attachments of a document (metadata)',
    tags: ['Documents'],
    params: documentParams,
    responses: { 200: { description: 'Attachments', schema: z.object({ data: z.array(attachmentMeta) }) } },
    errors: ['invalid_field', 'document_not_found'],
    handler: async ({ auth, params }) => {
      const document = await requireDocument(store, auth, params.id);
      const attachments = await store.attachments.find({ document_id: document._id }).sort({ position: 1 }).lean();
      return {
        status: 200,
        body: {
          data: attachments.map(attachmentView),
        },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/attachments/{attachmentId}',
    operationId: 'getDocumentAttachment',
    summary: 'The raw bytes of an attachment, with its content type',
    tags: ['Documents'],
    params: documentParams.extend({ attachmentId: resourceId('attachment', 'att_7fQ2LmQ4rT7vW0xY3zA6bC8d') }),
    responses: { 200: { description: 'The file', schema: z.string().openapi({ format: 'binary' }), contentType: 'application/octet-stream' } },
    errors: ['invalid_field', 'document_not_found', 'attachment_not_found'],
    handler: async ({ auth, params, res }) => {
      const document = await requireDocument(store, auth, params.id);
      const attachment = await store.attachments.findOne({ _id: params.attachmentId, document_id: document._id }).lean();
      if (!attachment) throw new ApiError('attachment_not_found', `Document ${document._id} has no attachment ${params.attachmentId}.`, { param: 'attachmentId' });
      res
        .status(200)
        .type(attachment.mime_type)
        .setHeader('Content-Disposition', `attachment; filename="${attachment.filename.replace(/["\\\r\n]/g, '_')}"`)
        .send(Buffer.from(attachment.content, 'base64'));
    },
  });
}
