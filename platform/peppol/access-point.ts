import { z } from 'zod';

import type { EnvelopeRouting } from '../../domain/peppol/envelope';
import { fullIdentifier } from '../../domain/peppol/smp';

/**
 * Client of our Peppol access point (access-point/, a phase4 program): it
 * takes a ready Standard Business Document and the receiver's endpoint from
 * the SMP, and sends it by the Peppol AS4 profile, signed and encrypted with
 * the access point certificate. It answers when the receiving access point
 * has returned its signed receipt, or with why not, and whether trying again
 * can help.
 */

export interface As4SendRequest {
  /** AS4 message id; the same for every attempt of one document, so the receiver can discard a repeat. */
  messageId: string;
  senderId: string;
  receiverId: string;
  /** Full identifiers (`scheme::value`). */
  documentTypeId: string;
  processId: string;
  countryC1: string;
  endpointUrl: string;
  /** The receiving access point's certificate as the SMP publishes it (base64 DER, no whitespace). */
  receiverCertificate: string;
  sbd: string;
}

/** The send request for a routed document (parties, ids and country from its routing) to the endpoint its receiver's SMP names. */
export function sendRequest(
  routing: EnvelopeRouting,
  message: { messageId: string; endpoint: { url: string; certificate: string }; sbd: string },
): As4SendRequest {
  return {
    messageId: message.messageId,
    senderId: routing.sender,
    receiverId: routing.receiver,
    documentTypeId: fullIdentifier(routing.documentType),
    processId: fullIdentifier(routing.process),
    countryC1: routing.countryC1,
    endpointUrl: message.endpoint.url,
    receiverCertificate: message.endpoint.certificate,
    sbd: message.sbd,
  };
}

export interface As4Receipt {
  messageId: string;
  receiptMessageId: string;
  receiptTimestamp: string;
  /** The receiving access point's seat id (its certificate's CN). */
  receiverSeat: string;
}

/** The send did not end with a receipt; `permanent` when another attempt would get the same answer. */
export class As4SendError extends Error {
  override name = 'As4SendError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface PeppolAccessPoint {
  /** `cancelled`: the caller no longer waits (the access point may still finish the send). */
  send(request: As4SendRequest, cancelled?: AbortSignal): Promise<As4Receipt>;
  /**
   * Its seat id (its certificate's CN, e.g. `PBE000001`), which names it as a Peppol service provider: the one
   * place it is configured is the access point's own certificate. Asked once and kept; an access point that
   * does not answer is asked again next time (the caller's retry).
   */
  seat(): Promise<string>;
}

/**
 * Longer than the access point's own limits for one message (connecting 10 s, the answer at most 30 s), so it
 * always answers first, and shorter than one delivery attempt (60 s).
 */
const REQUEST_TIMEOUT_MS = 45_000;

const pem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;

const healthSchema = z.object({ seat: z.string().regex(/^P[A-Z]{2}[0-9]{6}$/, 'a Peppol seat id such as PBE000001') });

/** `name`: how errors call it (the ops CLI also drives the local network stand-in's access point, which answers alike). */
export function peppolAccessPoint(baseUrl: string, name = 'our access point'): PeppolAccessPoint {
  let seat: string | undefined;
  return {
    async send(request, cancelled) {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/send`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            ...request,
            receiverCertificate: pem(request.receiverCertificate),
            sbd: Buffer.from(request.sbd, 'utf8').toString('base64'),
          }),
          signal: cancelled
            ? AbortSignal.any([cancelled, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
            : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        throw new As4SendError(
          `${name} at ${baseUrl} could not be reached (${String((err as Error).cause ?? err)})`,
          false,
        );
      }
      const body = (await response.json().catch(() => ({}))) as Partial<As4Receipt> & {
        error?: string;
        permanent?: boolean;
      };
      if (response.status === 200 && body.receiptMessageId) return body as As4Receipt;
      const reason = body.error ?? `HTTP ${response.status}`;
      // 400: our request was malformed, which no retry mends; 422: the receiver's final answer.
      if (response.status === 400) throw new As4SendError(`${name} refused the request: ${reason}`, true);
      throw new As4SendError(reason, response.status === 422 || body.permanent === true);
    },
    async seat() {
      if (seat) return seat;
      let body: unknown;
      try {
        const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        body = await response.json();
      } catch (err) {
        throw new Error(`${name} at ${baseUrl} did not name its seat id: ${(err as Error).message}`, { cause: err });
      }
      const parsed = healthSchema.safeParse(body);
      if (!parsed.success)
        throw new Error(`${name} at ${baseUrl} named no usable seat id: ${parsed.error.issues[0]?.message ?? ''}`);
      seat = parsed.data.seat;
      return seat;
    },
  };
}
