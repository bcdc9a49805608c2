/**
 * The events of replies. Those our companies send about received documents:
 * an Invoice Response (to the seller; feed and webhooks) and a Message Level
 * Status (to the sending access point; feed and history only). Each is
 * written once per reply, under the dedupe key `<reply id>:final`.
 */
export const RESPONSE_SENT_EVENT = 'document.response_sent';
export const RESPONSE_FAILED_EVENT = 'document.response_failed';
export const MLS_SENT_EVENT = 'document.mls_sent';
export const MLS_FAILED_EVENT = 'document.mls_failed';

/** A reply about a document we sent: the buyer's Invoice Response, the receiving access point's Message Level Status (feed and webhooks). */
export const RESPONSE_RECEIVED_EVENT = 'document.response_received';
export const MLS_RECEIVED_EVENT = 'document.mls_received';

export const RESPONSE_EVENT_TYPES = [RESPONSE_SENT_EVENT, RESPONSE_FAILED_EVENT] as const;
export const MLS_EVENT_TYPES = [MLS_SENT_EVENT, MLS_FAILED_EVENT] as const;

/** A reply the service sends, by the collection that holds it: what the one reply-sending activity takes. */
export interface ReplyRef {
  kind: 'invoice_response' | 'mls';
  id: string;
}

/** How a reply's send ended; `sent` carries the AS4 message id (null when no network was involved: the sandbox). */
export type ReplyOutcome =
  { status: 'sent'; messageId: string | null; description: string } | { status: 'failed'; error: string };
