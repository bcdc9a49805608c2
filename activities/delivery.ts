import { ApplicationFailure } from '@temporalio/activity';

import { moveDocument } from '../services/documents';
import type { ActivityDependencies } from './index';

/** SMTP reply codes 5xx are final: retrying cannot make the server accept the message. */
const isPermanentSmtpFailure = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

const safeFilename = (number: string) => number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'document';

export function deliveryActivities({ store, mailer, mailFrom, usage, logger }: ActivityDependencies) {
  return {
    async markSending(documentId: string): Promise<void> {
      await moveDocument(store, documentId, 'sending', 'in_transit', { message: 'Sending by email (sandbox)' });
    },

    /**
     * Sandbox delivery: one email with the stored UBL attached. The send is
     * recorded on the document and checked first, so a retry after a
     * recorded send does nothing; every attempt carries the same Message-ID
     * (derived from the document id), so the one duplicate still possible (a
     * crash between SMTP acceptance and the record) can be discarded by the
     * receiver.
     */
    async deliverByEmail(documentId: string): Promise<string> {
      const document = await store.documents.findById(documentId).lean();
      if (!document) throw ApplicationFailure.nonRetryable(`Document ${documentId} does not exist.`, 'PermanentDeliveryError');
      if (document.sent_at && document.message_id) return document.message_id;
      if (!document.recipient_email) {
        throw ApplicationFailure.nonRetryable('No recipient email: set to.email, or an email on the company or the account.', 'PermanentDeliveryError');
      }
      const messageId = `<${document._id}@einvoice.localhost>`;
      const kind = document.type === 'credit_note' ? 'Credit note' : 'Invoice';
      const input = document.input as { from?: { name?: string }; issue_date?: string; due_date?: string };
      const totals = document.totals as { payable: string; tax: string };
      try {
        await mailer.sendMail({
          from: mailFrom,
          to: document.recipient_email,
          messageId,
          subject: `${kind} ${document.number} from ${input.from?.name ?? 'your supplier'}`,
          text: [
            `${kind} ${document.number} from ${input.from?.name ?? 'your supplier'}.`,
            `Issue date: ${input.issue_date ?? '-'}${input.due_date ? `, due ${input.due_date}` : ''}.`,
            `Amount payable: ${totals.payable} ${document.currency} (VAT ${totals.tax} ${document.currency}).`,
            '',
            'The attached XML is the Peppol BIS Billing 3.0 document. This is a sandbox delivery: nothing was sent on the Peppol network.',
          ].join('\n'),
          attachments: [{ filename: `${safeFilename(document.number)}.xml`, content: document.ubl, contentType: 'application/xml' }],
        });
      } catch (err) {
        if (isPermanentSmtpFailure(err)) {
          throw ApplicationFailure.nonRetryable(`The mail server refused the message: ${(err as Error).message}`, 'PermanentDeliveryError');
        }
        logger.warn({ err, documentId }, 'email delivery attempt failed; retrying');
        throw err;
      }
      await store.documents.updateOne({ _id: documentId, sent_at: null }, { $set: { sent_at: new Date(), message_id: messageId } });
      return messageId;
    },

    async markDelivered(documentId: string): Promise<void> {
      const moved = await moveDocument(store, documentId, 'delivered', 'delivered', { message: 'Delivered by email (sandbox)' });
      // Counted once: a retried activity finds the document delivered already.
      if (moved) await usage.count(moved.account_id, 'documents_sent');
    },

    async markFailed(documentId: string, errorMessage: string): Promise<void> {
      await moveDocument(store, documentId, 'failed', 'failed', { error_message: errorMessage, message: errorMessage });
    },
  };
}
