import { DOCUMENT_STATUSES } from '../../domain/documents/lifecycle';
import { RENDER_LANGUAGES, type RenderFormat } from '../../platform/official-validator';
import { z } from './openapi';
import { cursorParam, idParam, peppolId } from './schemas';

/*
 * The path and query parameters of the public API's routes that other programs take as their own arguments too:
 * the MCP server's tools (mcp/tools.ts) describe their arguments with these very schemas. A route file imports
 * them from here; nothing here imports a route.
 */

export const documentParams = z.object({ id: idParam('document', 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp') });
export const companyQuery = idParam('company', 'com_0mhx3k2a1bQ8sV7yT2nR4kLp');
export const documentCompanyQuery = z.object({ company_id: companyQuery }).strict();
/** The other per-document routes' query (history, UBL, attachments, renderings): the company optional, checked when named (requireDocumentOf). */
export const optionalDocumentCompany = companyQuery.optional().openapi({
  description:
    "The document's company, optional: when named, a company this key sees (else 403 `not_company_member`) whose document this is (else 404 `document_not_found`)",
});

/** The list of documents, of one company or of every company the key sees. */
export const documentListQuery = z
  .object({
    company_id: companyQuery.optional().openapi({
      description:
        "The company whose documents to list; absent: every company of the key's workspace (a key limited to one company: that one)",
    }),
    status: z.enum(DOCUMENT_STATUSES).optional(),
    direction: z.enum(['sent', 'received']).optional().openapi({
      description:
        'Only documents sent, or only received; absent: both (the inbox, `GET /v1/inbox`, lists received ones with its own filters)',
    }),
    acknowledged: z.enum(['true', 'false']).optional().openapi({
      description: 'Received documents only: `false`, those not yet acknowledged (unread); `true`, those acknowledged',
    }),
    q: z.string().trim().min(1).max(100).optional().openapi({
      description:
        "Part of the document's number or of the other party's name (a sent document's buyer, a received one's seller), any case",
    }),
    issued_from: z.iso
      .date()
      .optional()
      .openapi({ description: 'Only documents issued on this date (YYYY-MM-DD) or later' }),
    issued_to: z.iso
      .date()
      .optional()
      .openapi({ description: 'Only documents issued on this date (YYYY-MM-DD) or earlier' }),
    limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1 to 100, default 20' }),
    cursor: cursorParam,
  })
  .strict();

/** The inbox: received documents of one company. */
export const inboxQuery = z
  .object({
    company_id: companyQuery,
    acknowledged: z.enum(['true', 'false']).optional().openapi({
      description: '`false`: only documents not yet acknowledged; `true`: only acknowledged ones; absent: all',
    }),
    created_after: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'Only documents received after this instant (RFC 3339)' }),
    limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1 to 100, default 20' }),
    cursor: cursorParam,
  })
  .strict();

/** A participant to look up. */
export const lookupParams = z.object({ peppol_id: peppolId });

/** A rendering's query: its labels' language and, optionally, the document's company. */
export const languageQuery = (format: RenderFormat) =>
  z
    .object({
      lang: z
        .enum(RENDER_LANGUAGES[format])
        .default('en')
        .openapi({
          description: `The labels' language: ${RENDER_LANGUAGES[format].map((lang) => `\`${lang}\``).join(', ')} (default \`en\`), with the language's number and date formats and country names. The document's own text stays as written.`,
        }),
      company_id: optionalDocumentCompany,
    })
    .strict();

export const pdfQuery = languageQuery('pdf');
