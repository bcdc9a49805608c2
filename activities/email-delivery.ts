import { Context } from '@temporalio/activity';
import { createTransport } from 'nodemailer';

import { SANDBOX_NOTICE } from '../domain/rendering/sandbox-notice';
import { fileStemOf } from '../domain/text';
import {
  documentToSend,
  type DocumentToSend,
  heartbeating,
  noteSent,
  permanentDeliveryFailure,
  recordRetry,
} from './delivery-attempt';
import type { ActivityDependencies } from './dependencies';
import type { DeliveryReceipt } from './lifecycle';

/** SMTP reply codes 5xx are final: retrying cannot make the server accept the message. */
const isPermanentSmtpFailure = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * The SMTP client's own limits, well inside one attempt's start-to-close
 * timeout, so an attempt always ends (and reports) before Temporal starts the
 * next one: two attempts never send at the same time.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/** The SMTP URL with the client limits added as its options (nodemailer reads them from the query string). */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [option, ms] of Object.entries(SMTP_TIMEOUTS)) url.searchParams.set(option, String(ms));
  return url.toString();
}

type EmailDeliveryDependencies = Pick<ActivityDependencies, 'store' | 'smtpUrl' | 'mailFrom' | 'logger'>;

export function emailDeliveryActivities(deps: EmailDeliveryDependencies) {
  return {
    /**
     * Sandbox delivery: one email to the recipient with the stored UBL
     * attached, and the PDF rendered before delivery when there is one.
     * Every attempt carries the same Message-ID (derived from the document id), so the one duplicate still possible (a crash between
     * SMTP acceptance and the activity's completion) can be discarded by the
     * receiver. The attempt heartbeats while it talks to the server and drops
     * the connection when Temporal cancels it.
     */
    deliverByEmail: (documentId: string): Promise<DeliveryReceipt> => deliverByEmail(deps, documentId),
  };
}

async function deliverByEmail(deps: EmailDeliveryDependencies, documentId: string): Promise<DeliveryReceipt> {
  const { store, logger } = deps;
  const found = await documentToSend(store, documentId);
  if ('sent' in found) return found.sent;
  const email = await emailOf(store, found);
  await sendAttempt(deps, email, documentId);
  const sentAt = new Date();
  await noteSent(store, documentId, { sent_at: sentAt, message_id: email.messageId }, logger);
  return { messageId: email.messageId, sentAt: sentAt.toISOString() };
}

/** The sandbox email of a document: to its recipient, its UBL and (when rendered) its PDF attached. */
async function emailOf(
  store: EmailDeliveryDependencies['store'],
  { document, ubl, input }: Extract<DocumentToSend, { ubl: string }>,
) {
  const recipient = document.recipient_email;
  if (!recipient)
    throw permanentDeliveryFailure('No recipient email: set to.email, or an email on the company or the account.');
  const kind = document.type === 'credit_note' ? 'Credit note' : 'Invoice';
  const seller = (input.from as { name?: string } | undefined)?.name ?? 'your supplier';
  const totals = document.totals;
  if (!totals) throw new Error(`document ${document._id} has no totals; only a received document can lack them`);
  const readable = await store.contents.findById(document._id, { readable_pdf: 1 }).lean();
  const stem = fileStemOf(document.number);
  const attachments = [
    { filename: `${stem}.xml`, content: ubl, contentType: 'application/xml' },
    ...(readable?.readable_pdf
      ? [
          {
            filename: `${stem}.pdf`,
            content: Buffer.from(readable.readable_pdf.buffer),
            contentType: 'application/pdf',
          },
        ]
      : []),
  ];
  return {
    to: recipient,
    messageId: `<${document._id}@einvoice.localhost>`,
    // Sandbox keys are free and nobody checks who holds them: the seller is only what the sender wrote.
    subject: `[Sandbox, sender not verified] ${kind} ${document.number} from ${seller}`,
    text: [
      SANDBOX_NOTICE,
      '',
      `${kind} ${document.number} from ${seller} (as the sender named itself).`,
      `Issue date: ${document.issue_date}${document.due_date ? `, due ${document.due_date}` : ''}.`,
      `Amount payable: ${totals.payable} ${document.currency} (VAT ${totals.tax} ${document.currency}).`,
      '',
      `The attached XML is the Peppol BIS Billing 3.0 document${attachments.length > 1 ? '; the PDF shows it for reading' : ''}. This is a sandbox delivery from a sender whose identity nobody has verified: do not act on it as if it came from the business it names.`,
    ].join('\n'),
    attachments,
  };
}

/** One attempt at the SMTP server, dropped when Temporal cancels it; a refusal for good fails the document. */
async function sendAttempt(
  { store, smtpUrl, mailFrom, logger }: EmailDeliveryDependencies,
  email: Awaited<ReturnType<typeof emailOf>>,
  documentId: string,
): Promise<void> {
  const transport = createTransport(withTimeouts(smtpUrl));
  const context = Context.current();
  const onCancel = () => transport.close();
  context.cancellationSignal.addEventListener('abort', onCancel);
  try {
    await heartbeating(() => transport.sendMail({ from: mailFrom, ...email }));
  } catch (err) {
    if (context.cancellationSignal.aborted) throw err;
    if (isPermanentSmtpFailure(err))
      throw permanentDeliveryFailure(`The mail server refused the message: ${(err as Error).message}`);
    logger.warn({ err, documentId, attempt: context.info.attempt }, 'email delivery attempt failed; retrying');
    await recordRetry(store, documentId, err, logger);
    throw err;
  } finally {
    context.cancellationSignal.removeEventListener('abort', onCancel);
    transport.close();
  }
}
