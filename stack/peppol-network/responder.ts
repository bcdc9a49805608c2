import { randomUUID } from 'node:crypto';
import { appendFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { INVOICE_RESPONSE, MESSAGE_LEVEL_STATUS } from '../../domain/peppol/capabilities';
import { RoutingError, routingOf, type EnvelopeRouting } from '../../domain/peppol/envelope';
import { serviceProviderId } from '../../domain/peppol/ids';
import type { InvoiceResponseContent } from '../../domain/peppol/invoice-response';
import { sbdhFacts, sbdPayload } from '../../domain/peppol/received-payload';
import { SPID_SCHEME, writeInvoiceResponse, writeMessageLevelStatus } from '../../domain/ubl/application-response';
import { childNamed, parseXml } from '../../domain/xml-tree';
import { NetworkSendError, sendFromStandIn, type SendingAccessPoint, type StandIn } from './standin-send';

/**
 * The stand-in's buyers answer what they receive, so the whole reply loop
 * runs on `npm start`: for every invoice or credit note that arrives in the
 * stand-in access point's inbox, (1) the Message Level Status its SBDH asks
 * for (MLS_TYPE ALWAYS_SEND: a positive `AP`, to MLS_TO or else the sender's
 * service provider id; FAILURE_ONLY: nothing, since the stand-in takes
 * everything), then (2) the configured Invoice Response (`AB` by default,
 * STANDIN_INVOICE_RESPONSE) from its buyer to its seller, looked up through
 * the SML and the seller's SMP like any send. It is a watcher of the inbox
 * directory in the network process (not Java in the access point) because
 * the sending path already exists in TypeScript (standin-send.ts, shared
 * with `ops network send` and `ops network respond`) and this keeps the
 * access point a plain AS4 program.
 */

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const AR_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';

/** One arrival in the stand-in's inbox (the access point's .json beside the SBD). */
export interface InboxEntry {
  messageId: string;
  receivedAt: string;
  fromPartyId: string | null;
  documentTypeId: string;
  /** The stored file's stem (`<safe message id>`). */
  stem: string;
}

/** What the responder and `ops network respond` need of a received invoice or credit note. */
export interface ReceivedBusinessDocument {
  entry: InboxEntry;
  ubl: string;
  routing: ReturnType<typeof routingOf>;
  number: string;
  issueDate: string | null;
  buyerCountry: string;
  buyerName: string;
  sellerName: string;
  instanceId: string | null;
  mlsTo: string | null;
  mlsType: string | null;
}

const isBusinessDocument = (documentTypeId: string) => /::(?:Invoice|CreditNote)##/.test(documentTypeId);

/** The metadata files of the inbox (`<stem>.json`; the access point moves each in whole and never changes it). */
const metadataNames = async (inboxDir: string) =>
  (await readdir(inboxDir).catch(() => [] as string[])).filter(
    (name) => name.endsWith('.json') && !name.startsWith('.'),
  );

async function readEntry(inboxDir: string, name: string): Promise<InboxEntry> {
  const meta = JSON.parse(await readFile(path.join(inboxDir, name), 'utf8')) as Omit<InboxEntry, 'stem'>;
  return { ...meta, stem: name.slice(0, -'.json'.length) };
}

const newestFirst = (entries: InboxEntry[]) => entries.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));

export async function inboxEntries(inboxDir: string): Promise<InboxEntry[]> {
  const entries: InboxEntry[] = [];
  for (const name of await metadataNames(inboxDir)) entries.push(await readEntry(inboxDir, name));
  return newestFirst(entries);
}

const textAt = (root: ReturnType<typeof parseXml>, ...steps: [string, string][]) => {
  let current: ReturnType<typeof parseXml> | undefined = root;
  for (const [namespace, name] of steps) current = current && childNamed(current, namespace, name);
  return current?.text || null;
};

/** Reads an inbox entry that is an invoice or credit note; undefined for anything else. */
export async function readBusinessDocument(
  inboxDir: string,
  entry: InboxEntry,
): Promise<ReceivedBusinessDocument | undefined> {
  if (!isBusinessDocument(entry.documentTypeId)) return undefined;
  return businessDocumentOf(await readFile(path.join(inboxDir, `${entry.stem}.xml`)), entry);
}

/**
 * An invoice or credit note an access point of the stand-in received, read from its SBD; undefined for anything else.
 * @internal
 */
export function businessDocumentOf(sbd: Buffer, entry: InboxEntry): ReceivedBusinessDocument | undefined {
  const payload = sbdPayload(sbd);
  const facts = sbdhFacts(sbd);
  if (!payload || !facts) return undefined;
  const ubl = payload.toString('utf8');
  let routing;
  try {
    routing = routingOf(ubl);
  } catch (err) {
    if (err instanceof RoutingError) return undefined;
    throw err;
  }
  const root = parseXml(ubl);
  const party = (role: string): [string, string][] => [
    [CAC, role],
    [CAC, 'Party'],
  ];
  return {
    entry,
    ubl,
    routing: { ...routing, receiver: facts.receiver ?? routing.receiver },
    number: textAt(root, [CBC, 'ID']) ?? '',
    issueDate: textAt(root, [CBC, 'IssueDate']),
    buyerCountry:
      textAt(
        root,
        ...party('AccountingCustomerParty'),
        [CAC, 'PostalAddress'],
        [CAC, 'Country'],
        [CBC, 'IdentificationCode'],
      ) ?? routing.countryC1,
    buyerName:
      textAt(root, ...party('AccountingCustomerParty'), [CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']) ?? '',
    sellerName:
      textAt(root, ...party('AccountingSupplierParty'), [CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']) ?? '',
    instanceId: facts.instanceId,
    mlsTo: facts.mlsTo,
    mlsType: facts.mlsType,
  };
}

/** The Invoice Response from the document's buyer to its seller, by AS4; returns one line saying what was sent. */
export async function sendInvoiceResponse(
  standIn: StandIn,
  document: ReceivedBusinessDocument,
  content: InvoiceResponseContent,
  via: SendingAccessPoint = 'stand-in',
): Promise<string> {
  const buyer = document.routing.receiver;
  const seller = document.routing.sender;
  const id = `IR-${randomUUID()}`;
  const ubl = writeInvoiceResponse({
    id,
    issueDate: new Date().toISOString().slice(0, 10),
    sender: { participantId: buyer, name: document.buyerName },
    receiver: { participantId: seller, name: document.sellerName },
    content,
    reference: {
      id: document.number,
      issueDate: document.issueDate,
      typeCode: document.routing.kind === 'credit_note' ? '381' : '380',
    },
  });
  const routing: EnvelopeRouting = {
    root: { namespace: AR_NAMESPACE, name: 'ApplicationResponse' },
    documentType: INVOICE_RESPONSE.documentType,
    process: INVOICE_RESPONSE.process,
    sender: buyer,
    receiver: seller,
    countryC1: document.buyerCountry,
  };
  const { receipt } = await sendFromStandIn(standIn, {
    ubl,
    routing,
    service: INVOICE_RESPONSE,
    messageId: `${randomUUID()}@peppol-standin`,
    instanceId: randomUUID(),
    via,
  });
  return `Invoice Response ${content.code} (${id}) about ${document.number} from ${buyer} to ${seller}: delivered, AS4 receipt ${receipt.receiptMessageId}`;
}

/**
 * The positive MLS the document's SBDH asks for, if it asks for one on success; returns what was sent, or undefined.
 * @internal
 */
export async function sendMessageLevelStatus(
  standIn: StandIn,
  document: ReceivedBusinessDocument,
  ourSeat: string,
  via: SendingAccessPoint = 'stand-in',
): Promise<string | undefined> {
  if (document.mlsType !== 'ALWAYS_SEND' || !document.instanceId) return undefined;
  // MLS_TO when valid, else the sending service provider's id from its seat (MLS 1.0; receiving.md 4.3, 4.4).
  const senderSpid = document.entry.fromPartyId ? serviceProviderId(document.entry.fromPartyId) : undefined;
  const to = document.mlsTo?.startsWith(`${SPID_SCHEME}:`)
    ? document.mlsTo
    : senderSpid && `${SPID_SCHEME}:${senderSpid}`;
  const ours = serviceProviderId(ourSeat);
  if (!to || !ours) return undefined;
  const ubl = writeMessageLevelStatus({
    id: `MLS-${randomUUID()}`,
    issuedAt: new Date(),
    senderSpid: ours,
    receiverSpid: to.slice(SPID_SCHEME.length + 1),
    code: 'AP',
    description: null,
    referencedInstanceId: document.instanceId,
    lines: [],
  });
  const routing: EnvelopeRouting = {
    root: { namespace: AR_NAMESPACE, name: 'ApplicationResponse' },
    documentType: MESSAGE_LEVEL_STATUS.documentType,
    process: MESSAGE_LEVEL_STATUS.process,
    sender: `${SPID_SCHEME}:${ours}`,
    receiver: to,
    countryC1: document.buyerCountry,
  };
  // An MLS never asks for an MLS.
  const { receipt } = await sendFromStandIn(standIn, {
    ubl,
    routing,
    service: MESSAGE_LEVEL_STATUS,
    messageId: `${randomUUID()}@peppol-standin`,
    instanceId: randomUUID(),
    via,
  });
  return `MLS AP about ${document.instanceId} to ${to}: delivered, AS4 receipt ${receipt.receiptMessageId}`;
}

/** How long an answer is tried again: a seller that cannot take responses by then never gets one. */
const GIVE_UP_AFTER_MS = 2 * 60_000;

export interface ResponderOptions {
  standIn: StandIn;
  inboxDir: string;
  /** Message ids answered already, one a line: a restart answers nothing twice. */
  answeredFile: string;
  /** The automatic Invoice Response, or 'off'. */
  response: InvoiceResponseContent['code'] | 'off';
  seat: string;
  log: (line: string) => void;
  intervalMs?: number;
}

/** Watches the inbox and answers each new invoice or credit note once; failed answers are tried again on the next pass. */
export function startResponder(options: ResponderOptions): { close: () => Promise<void> } {
  let stopped = false;
  let pass: Promise<void> = Promise.resolve();
  const answered = new Set<string>();
  const loaded = readFile(options.answeredFile, 'utf8')
    .then((text) =>
      text
        .split('\n')
        .filter(Boolean)
        .forEach((id) => answered.add(id)),
    )
    .catch(() => undefined);

  const answer = async (document: ReceivedBusinessDocument) => {
    const mls = await sendMessageLevelStatus(options.standIn, document, options.seat);
    if (mls) options.log(`responder: ${mls}`);
    if (options.response !== 'off') {
      const reasons = ['UQ', 'CA', 'RE'].includes(options.response)
        ? [{ code: 'OTH' as const, text: 'Automatic response of the local Peppol network stand-in' }]
        : [];
      options.log(
        `responder: ${await sendInvoiceResponse(options.standIn, document, { code: options.response, reasons, actions: [], note: null })}`,
      );
    }
  };

  // Each pass reads only the metadata files it has not read before: the inbox only grows, and re-reading all of
  // it every second cost the process CPU in proportion to everything that ever arrived.
  const read = new Set<string>();
  const pending = new Map<string, InboxEntry>();
  const unanswered = async () => {
    for (const name of await metadataNames(options.inboxDir)) {
      if (read.has(name)) continue;
      const entry = await readEntry(options.inboxDir, name);
      read.add(name);
      if (!answered.has(entry.messageId)) pending.set(entry.stem, entry);
    }
    return newestFirst([...pending.values()]);
  };

  const run = async () => {
    await loaded;
    for (const entry of await unanswered()) {
      if (stopped) continue;
      const document = await readBusinessDocument(options.inboxDir, entry).catch(() => undefined);
      try {
        if (document) await answer(document);
      } catch (err) {
        // The seller's SMP or access point may not be there yet (a company being registered): later passes try again, for a while.
        const why = err instanceof NetworkSendError ? err.message : String(err);
        if (Date.now() - Date.parse(entry.receivedAt) < GIVE_UP_AFTER_MS) continue;
        options.log(`responder: gave up answering ${entry.messageId}: ${why}`);
      }
      answered.add(entry.messageId);
      pending.delete(entry.stem);
      await appendFile(options.answeredFile, `${entry.messageId}\n`);
    }
  };
  const timer = setInterval(() => {
    pass = pass.then(run).catch((err: unknown) => options.log(`responder: ${String(err)}`));
  }, options.intervalMs ?? 1000);
  return {
    close: async () => {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}
