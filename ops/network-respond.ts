import path from 'node:path';

import {
  contentProblems,
  RESPONSE_CODES,
  STATUS_ACTIONS,
  STATUS_REASONS,
  type Clarification,
  type InvoiceResponseContent,
  type ResponseCode,
  type StatusAction,
  type StatusReason,
} from '../domain/peppol/invoice-response';
import type { StackConfig } from '../stack/config';
import { inboxEntries, readBusinessDocument, sendInvoiceResponse } from '../stack/peppol-network/responder';
import { NetworkSendError } from '../stack/peppol-network/standin-send';
import { standInOf } from './network-send';

/**
 * `network respond <document> <code> [--reason CODE[:text]]… [--action CODE[:text]]… [--note text]`:
 * the buyer of an invoice or credit note the stand-in's access point received
 * sends another Invoice Response to its seller, by the same path as the
 * stand-in's automatic one (stack/peppol-network/responder.ts). `<document>`
 * is the invoice or credit note number (the newest arrival with it) or the
 * AS4 message id of the arrival, as `GET /inbox` lists it.
 */

/** What the buyer answers: the response code, its reasons and actions (`CODE[:text]` each, in the order given) and a note. */
interface ResponseWords {
  code: string;
  reasons: string[];
  actions: string[];
  note?: string | undefined;
}

export interface RespondOptions extends ResponseWords {
  document: string;
}

function clarification<C extends string>(value: string, codes: Record<C, string>, what: string): Clarification<C> {
  const separator = value.indexOf(':');
  const code = (separator < 0 ? value : value.slice(0, separator)).toUpperCase();
  if (!(code in codes)) throw new NetworkSendError(`${what} ${code} is not one of ${Object.keys(codes).join(', ')}`);
  return { code: code as C, text: separator < 0 ? null : value.slice(separator + 1) || null };
}

/**
 * The response the arguments describe, or why they do not describe one.
 * @internal
 */
export function responseOf({ code, reasons, actions, note }: ResponseWords): InvoiceResponseContent {
  if (!(RESPONSE_CODES as readonly string[]).includes(code))
    throw new NetworkSendError(`response code ${code} is not one of ${RESPONSE_CODES.join(', ')}`);
  const content: InvoiceResponseContent = {
    code: code as ResponseCode,
    reasons: reasons.map((reason) => clarification<StatusReason>(reason, STATUS_REASONS, 'status reason')),
    actions: actions.map((action) => clarification<StatusAction>(action, STATUS_ACTIONS, 'action')),
    note: note ?? null,
  };
  const problems = contentProblems(content);
  if (problems.length > 0)
    throw new NetworkSendError(problems.map((problem) => `[${problem.rule}] ${problem.message}`).join('; '));
  return content;
}

export async function networkRespond(stack: StackConfig, { document, ...words }: RespondOptions): Promise<string> {
  const content = responseOf(words);
  const inboxDir = path.join(stack.DATA_DIR, 'peppol-network', 'inbox');
  for (const entry of await inboxEntries(inboxDir)) {
    const received = await readBusinessDocument(inboxDir, entry);
    if (received && (entry.messageId === document || received.number === document))
      return sendInvoiceResponse(standInOf(stack), received, content);
  }
  throw new NetworkSendError(
    `the stand-in's access point received no invoice or credit note numbered ${document} or with that AS4 message id (see its /inbox)`,
  );
}
