import { idPattern } from '../../../domain/ids';
import { FEED_DELAY_MS, listEvents } from '../../../services/events';
import type { Store } from '../../../store';
import { requireDocument, requireDocumentCompany, requireMembership } from '../access';
import { z } from '../../contract/openapi';
import { decodeCursor, encodeCursor, pageSchema, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { cursorParam, idParam } from '../../contract/schemas';
import { invalidField } from '../../http/validation';
import { eventSchema, eventView, FEED_EVENT_TYPES } from '../../contract/views/events';

export function eventRoutes(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    summary: "The workspace's lifecycle events, oldest first",
    description:
      "Every `document.*` event of the calling key's workspace and environment (queued, sending, retry, delivered, failed), and `credits.low` (live), " +
      'oldest first, in the same shape webhooks deliver. Page with `cursor`: a `next_cursor` never skips or repeats an event, ' +
      `also while new ones arrive, because the feed lists events once they are ${FEED_DELAY_MS / 1000} s old. ` +
      'Unlike other lists, `next_cursor` is set on every page, also the last (then it marks the end so far; `has_more` is false): keep it and ask again later to tail the feed. ' +
      'A key limited to one company sees that company only.',
    tags: ['Events'],
    limitedKeys: true,
    query: z
      .object({
        type: z.enum(FEED_EVENT_TYPES).optional(),
        company_id: idParam('company', 'com_0mhx3k2a1bQ8sV7yT2nR4kLp').optional(),
        document_id: idParam('document', 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp').optional(),
        from: z.iso
          .datetime({ offset: true })
          .optional()
          .openapi({ description: 'Events created at or after this time' }),
        to: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Events created before this time' }),
        limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ description: '1 to 100, default 50' }),
        cursor: cursorParam,
      })
      .strict(),
    responses: { 200: { description: 'A page of events', schema: pageSchema(eventSchema, 'EventList') } },
    errors: ['workspace_not_found', 'not_company_member', 'document_not_found'],
    handler: async ({ auth, query }) => {
      await requireMembership(store, auth, auth.workspaceId);
      const companyId = query.company_id ?? auth.companyId ?? undefined;
      // An empty filter is answered as an unknown id would be, never read as "no filter".
      if (companyId !== undefined) await requireDocumentCompany(store, auth, companyId);
      if (query.document_id !== undefined) await requireDocument(store, auth, query.document_id, companyId);
      if (query.from && query.to && Date.parse(query.from) >= Date.parse(query.to))
        throw invalidField('to', 'to must be after from.');
      const after = decodeCursor(query.cursor, idPattern('event'));
      const page = await listEvents(
        store,
        {
          workspaceId: auth.workspaceId,
          environment: auth.environment,
          type: query.type,
          companyId,
          documentId: query.document_id,
          from: query.from ? new Date(query.from) : undefined,
          to: query.to ? new Date(query.to) : undefined,
        },
        query.limit,
        after,
      );
      // A feed is tailed: the cursor after the last event (or where the caller was) comes with every page.
      const last = page.items.at(-1)?._id ?? after;
      return { status: 200, body: { ...pageView(page, eventView), next_cursor: last ? encodeCursor(last) : null } };
    },
  });
}
