import { timingSafeEqual } from 'node:crypto';

import express, { type Express } from 'express';
import { z } from 'zod';

import type { Logger } from '../../platform/logger';
import { as4Received } from '../../platform/metrics';
import { MessageIdReusedError, takeInbound, type IntakeDependencies } from '../../services/receiving/intake';
import { servicedCompany } from '../../services/receiving/registration';
import { mlsRecipient } from '../../services/receiving/service-provider';

/**
 * The intake: where our access point hands over each AS4 message it has
 * verified and decrypted, before it answers the sender. 200 means the
 * message is stored (or was before: a repeat) and the receipt may go out;
 * 422 `PEPPOL:NOT_SERVICED` means we do not receive that document type for
 * that participant (the access point answers the sender with that ebMS
 * error), 422 `MESSAGE_ID_REUSED` that the message id came before with
 * another sender, receiver or payload (EBMS:0003, no receipt); anything else means "not stored, no receipt", and the sender
 * tries again. Only our access point calls it: it listens on loopback by
 * default and wants the shared bearer token.
 */

const messageSchema = z.object({
  messageId: z.string().min(1).max(1024),
  conversationId: z.string().max(1024).nullish(),
  senderId: z.string().min(1).max(200),
  receiverId: z.string().min(1).max(200),
  documentTypeId: z.string().min(1).max(1000),
  processId: z.string().min(1).max(1000),
  countryC1: z.string().max(10).nullish(),
  fromPartyId: z.string().max(200).nullish(),
  senderCertificate: z.string().max(20_000).nullish(),
  receivedAt: z.iso.datetime({ offset: true }).nullish(),
  sbd: z.base64(),
});

export interface InboundOptions extends IntakeDependencies {
  token: string;
  /** Our service provider participant (`0242:<SPID>`), which receives Message Level Status; undefined: none. */
  serviceProvider?: string | undefined;
}

/** The intake's answer to a message id used before for another message; our access point refuses the message with EBMS:0003. */
const MESSAGE_ID_REUSED = 'MESSAGE_ID_REUSED';

/** Room for the largest SBD an access point forwards (AP_MAX_INBOUND_BYTES, at most 15 MiB) in base64, and its metadata. */
const MAX_BODY_BYTES = 21 * 1024 * 1024;

const sameToken = (given: string | undefined, token: string) => {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

export function inboundApp(options: InboundOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.post('/inbound', admission(options.token), express.json({ limit: MAX_BODY_BYTES }), receiveMessage(options));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found', message: 'The intake has POST /inbound only.' });
  });
  app.use(unreadableBody);
  return app;
}

/** The token and the declared length are checked before any of the body is read: nothing unauthenticated or oversized costs a parse. */
function admission(token: string): express.RequestHandler {
  return (req, res, next) => {
    if (!sameToken(req.get('authorization'), token)) {
      res
        .set('Connection', 'close')
        .status(401)
        .json({ error: 'unauthorized', message: 'The intake wants the access point bearer token.' });
      return;
    }
    if (Number(req.get('content-length') ?? 0) > MAX_BODY_BYTES) {
      res
        .set('Connection', 'close')
        .status(413)
        .json({ error: 'too_large', message: `The intake takes bodies up to ${MAX_BODY_BYTES} bytes.` });
      return;
    }
    next();
  };
}

/** Stores the message for the company it is for, then answers; only a stored message is receipted. */
function receiveMessage(options: InboundOptions): express.RequestHandler {
  const { store, logger } = options;
  return async (req, res) => {
    const parsed = messageSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({
        error: 'invalid_message',
        message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      });
      return;
    }
    const message = parsed.data;
    try {
      // A company's participant (invoices, credit notes, Invoice Responses), or our service provider's (MLS, filed under the company whose document it names).
      const recipient =
        (await servicedCompany(store, message.receiverId, message.documentTypeId)) ??
        (await mlsRecipient(store, options.serviceProvider, {
          receiverId: message.receiverId,
          documentTypeId: message.documentTypeId,
          sbd: Buffer.from(message.sbd, 'base64'),
        }));
      if (!recipient) {
        as4Received.inc({ outcome: 'not_serviced' });
        logRefusal(logger, message);
        res.status(422).json({
          error: 'PEPPOL:NOT_SERVICED',
          message: `${message.receiverId} is not registered with us for ${message.documentTypeId}`,
        });
        return;
      }
      const intake = await takeInbound(options, arrivalOf(message), { ...recipient, environment: 'live' });
      as4Received.inc({ outcome: intake.created ? 'stored' : 'repeated' });
      logger.info(
        { documentId: intake.documentId, messageId: message.messageId, created: intake.created },
        intake.created ? 'received a message' : 'received a message again; answered as before',
      );
      res.status(200).json({ status: intake.created ? 'stored' : 'duplicate', document_id: intake.documentId });
    } catch (err) {
      if (err instanceof MessageIdReusedError) {
        as4Received.inc({ outcome: 'id_reused' });
        logger.warn(
          { messageId: message.messageId, receiverId: message.receiverId },
          'refused a message whose id was used before for another message',
        );
        res.status(422).json({ error: MESSAGE_ID_REUSED, message: err.message });
        return;
      }
      as4Received.inc({ outcome: 'not_stored' });
      logger.error({ err, messageId: message.messageId }, 'a received message could not be stored; no receipt');
      res.status(503).json({ error: 'not_stored', message: 'The message could not be stored; try again.' });
    }
  };
}

/** What the access point tells of a message, as the intake stores it. */
function arrivalOf(message: z.infer<typeof messageSchema>): Parameters<typeof takeInbound>[1] {
  return {
    source: 'peppol',
    messageId: message.messageId,
    senderId: message.senderId,
    receiverId: message.receiverId,
    documentTypeId: message.documentTypeId,
    processId: message.processId,
    countryC1: message.countryC1 ?? null,
    accessPoint: message.fromPartyId ?? null,
    accessPointCertificate: message.senderCertificate ?? null,
    payload: Buffer.from(message.sbd, 'base64'),
    receivedAt: message.receivedAt ? new Date(message.receivedAt) : new Date(),
  };
}

/** A body too large or not JSON: not stored, said in JSON (express would answer HTML). */
function unreadableBody(
  err: { status?: number; message?: string },
  _req: express.Request,
  res: express.Response,
  _next: express.NextFunction,
): void {
  res.status(err.status === 413 ? 413 : 400).json({
    error: err.status === 413 ? 'too_large' : 'invalid_message',
    message: err.message ?? 'unreadable body',
  });
}

function logRefusal(logger: Logger, message: z.infer<typeof messageSchema>): void {
  logger.info(
    { messageId: message.messageId, receiverId: message.receiverId, documentTypeId: message.documentTypeId },
    'refused a message for a participant we do not serve',
  );
}
