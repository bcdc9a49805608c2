import path from 'node:path';

import { contentProblems, RESPONSE_CODES, STATUS_ACTIONS, STATUS_REASONS, type Clarification, type InvoiceResponseContent, type ResponseCode, type StatusAction, type StatusReason } from '../domain/invoice-response';
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

export interface RespondOptions {
  document: string;
  code: string;
  options: string[];
}

function clarification<C extends string>(value: string, codes: Record<C, string>, what: string): Clarification<C> {
  const separator = value.indexOf(':');
  const code = (separator < 0 ? value : value.slice(0, separator)).toUpperCase();
  if (!(code in codes)) throw new NetworkSendError(`${what} ${code} is not one of ${Object.keys(codes).join(', ')}`);
  return { code: code as C, text: separator < 0 ? null : value.slice(separator + 1) || null };
}

/** The response the arguments describe, or why they do not describe one. */
export function responseOf(code: string, options: string[]): InvoiceResponseContent {
  if (!(RESPONSE_CODES as readonly string[]).includes(code)) throw new NetworkSendError(`response code ${code} is not one of ${RESPONSE_CODES.join(', ')}`);
  const content: InvoiceResponseContent = { code: code as ResponseCode, reasons: [], actions: [], note: null };
  for (let index = 0; index < options.length; index += 2) {
    const [flag, value] = [options[index], options[index + 1]];
    if (value === undefined) throw new NetworkSendError(`${flag} wants a value`);
    if (flag === '--reason') content.reasons.push(clarification<StatusReason>(value, STATUS_REASONS, 'status reason'));
    else if (flag === '--action') content.actions.push(clarification<StatusAction>(value, STATUS_ACTIONS, 'action'));
    else if (flag === '--note') content.note = value;
    else throw new NetworkSendError(`unexpected ${flag}: expected --reason, --action or --note`);
  }
  const problems = contentProblems(content);
  if (problems.length > 0) throw new NetworkSendError(problems.map((problem) => `[${problem.rule}] ${problem.message}`).join('; '));
  return content;
}

export async function networkRespond(stack: StackConfig, { document, code, options }: RespondOptions): Promise<string> {
  const content = responseOf(code, options);
  const inboxDir = path.join(stack.DATA_DIR, 'peppol-network', 'inbox');
  for (const entry of await inboxEntries(inboxDir)) {
    const received = await readBusinessDocument(inboxDir, entry);
    if (received && (entry.messageId === document || received.number === document)) return sendInvoiceResponse(standInOf(stack), received, content);
  }
  throw new NetworkSendError(`the stand-in's access point received no invoice or credit note numbered ${document} or with that AS4 message id (see its /inbox)`);
}
