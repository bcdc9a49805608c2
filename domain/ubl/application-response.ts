import { create } from 'xmlbuilder2';

import {
  RESPONSE_CODES,
  type Clarification,
  type InvoiceResponseContent,
  type ResponseCode,
} from '../peppol/invoice-response';
import { childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from '../xml-tree';
import { aggregate, cbc, NS } from './xml';

/**
 * The two UBL ApplicationResponse documents Peppol carries between access
 * points and their users, written and read here:
 * - the Invoice Response (BIS Invoice Response 3, T111): buyer → seller,
 *   about one invoice or credit note (structure/syntax/ubl-invoiceresponse.xml);
 * - the Message Level Status (Peppol MLS 1.0): receiving access point →
 *   sending access point, about one AS4 message (peppol-mls-1.0.x).
 * Both are told apart by their CustomizationID.
 */

const APPLICATION_RESPONSE = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';
const INVOICE_RESPONSE_CUSTOMIZATION = 'urn:fdc:peppol.eu:poacc:trns:invoice_response:3';
const INVOICE_RESPONSE_PROFILE = 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3';
const MLS_CUSTOMIZATION = 'urn:peppol:edec:mls:1.0';
const MLS_PROFILE = 'urn:peppol:edec:mls';
/** The ICD of Peppol service provider ids (SPIS): MLS parties are access points, not businesses. */
export const SPID_SCHEME = '0242';

/** A party by its Peppol participant id (`scheme:value`) and legal name. */
interface ResponseParty {
  participantId: string;
  name: string;
}

export interface InvoiceResponseDocument {
  id: string;
  issueDate: string;
  /** The buyer who answers, and the seller who sent the invoice (the receiver of this response). */
  sender: ResponseParty;
  receiver: ResponseParty;
  content: InvoiceResponseContent;
  /** The invoice or credit note answered: its number, issue date and type code (380 invoice, 381 credit note: OP-BR111-R014). */
  reference: { id: string; issueDate: string | null; typeCode: string };
}

export const MLS_CODES = ['AP', 'AB', 'RE'] as const;
export type MlsCode = (typeof MLS_CODES)[number];
/** BV business rule violation (fatal), BW warning, FD failed delivery towards C4, SV syntax violation. */
export const MLS_REASONS = ['BV', 'BW', 'FD', 'SV'] as const;
type MlsReason = (typeof MLS_REASONS)[number];

export interface MlsLine {
  reason: MlsReason;
  description: string;
  /** Where in the business document, or `NA`. */
  lineId: string;
}

export interface MessageLevelStatus {
  id: string;
  issuedAt: Date;
  /** Service provider ids without the 0242 scheme: the receiving access point's (ours when we send it) and the sending one's. */
  senderSpid: string;
  receiverSpid: string;
  code: MlsCode;
  description: string | null;
  /** The SBDH InstanceIdentifier of the business message this status is about. */
  referencedInstanceId: string;
  lines: MlsLine[];
}

function endpoint(parent: ReturnType<typeof create>, participantId: string): void {
  const separator = participantId.indexOf(':');
  cbc(parent, 'EndpointID', participantId.slice(separator + 1), { schemeID: participantId.slice(0, separator) });
}

function applicationResponse(customization: string, profile: string, id: string) {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(APPLICATION_RESPONSE, 'ApplicationResponse');
  root.att('xmlns:cac', NS.cac).att('xmlns:cbc', NS.cbc);
  cbc(root, 'CustomizationID', customization);
  cbc(root, 'ProfileID', profile);
  cbc(root, 'ID', id);
  return root;
}

function clarifications(response: ReturnType<typeof create>, listId: string, items: Clarification[]): void {
  for (const item of items) {
    aggregate(response, 'Status', (status) => {
      cbc(status, 'StatusReasonCode', item.code, { listID: listId });
      cbc(status, 'StatusReason', item.text);
    });
  }
}

/** The T111 UBL of a buyer's response (the official rules judge it after). */
export function writeInvoiceResponse(response: InvoiceResponseDocument): string {
  const root = applicationResponse(INVOICE_RESPONSE_CUSTOMIZATION, INVOICE_RESPONSE_PROFILE, response.id);
  cbc(root, 'IssueDate', response.issueDate);
  cbc(root, 'Note', response.content.note);
  for (const [role, party] of [
    ['SenderParty', response.sender],
    ['ReceiverParty', response.receiver],
  ] as const) {
    aggregate(root, role, (node) => {
      endpoint(node, party.participantId);
      aggregate(node, 'PartyLegalEntity', (legal) => cbc(legal, 'RegistrationName', party.name));
    });
  }
  aggregate(root, 'DocumentResponse', (documentResponse) => {
    aggregate(documentResponse, 'Response', (node) => {
      cbc(node, 'ResponseCode', response.content.code);
      clarifications(node, 'OPStatusReason', response.content.reasons);
      clarifications(node, 'OPStatusAction', response.content.actions);
    });
    aggregate(documentResponse, 'DocumentReference', (reference) => {
      cbc(reference, 'ID', response.reference.id);
      cbc(reference, 'IssueDate', response.reference.issueDate);
      cbc(reference, 'DocumentTypeCode', response.reference.typeCode);
    });
  });
  return root.end({ prettyPrint: true, wellFormed: true });
}

/** The MLS UBL (peppol-mls: IssueTime with its zone, parties by SPID, one DocumentResponse; a negative one says why per line). */
export function writeMessageLevelStatus(status: MessageLevelStatus): string {
  const root = applicationResponse(MLS_CUSTOMIZATION, MLS_PROFILE, status.id);
  const iso = status.issuedAt.toISOString();
  cbc(root, 'IssueDate', iso.slice(0, 10));
  cbc(root, 'IssueTime', `${iso.slice(11, 19)}Z`);
  aggregate(root, 'SenderParty', (node) => endpoint(node, `${SPID_SCHEME}:${status.senderSpid}`));
  aggregate(root, 'ReceiverParty', (node) => endpoint(node, `${SPID_SCHEME}:${status.receiverSpid}`));
  aggregate(root, 'DocumentResponse', (documentResponse) => {
    aggregate(documentResponse, 'Response', (node) => {
      cbc(node, 'ResponseCode', status.code);
      cbc(node, 'Description', status.description);
    });
    aggregate(documentResponse, 'DocumentReference', (reference) => cbc(reference, 'ID', status.referencedInstanceId));
    for (const line of status.lines) {
      aggregate(documentResponse, 'LineResponse', (lineResponse) => {
        aggregate(lineResponse, 'LineReference', (reference) => cbc(reference, 'LineID', line.lineId));
        aggregate(lineResponse, 'Response', (node) => {
          cbc(node, 'Description', line.description);
          aggregate(node, 'Status', (reason) => cbc(reason, 'StatusReasonCode', line.reason));
        });
      });
    }
  });
  return root.end({ prettyPrint: true, wellFormed: true });
}

/** A received Invoice Response, as far as it could be read; codes outside the lists are kept as they came. */
export interface ReadInvoiceResponse {
  kind: 'invoice_response';
  id: string;
  issueDate: string | null;
  sender: ResponseParty | null;
  receiver: ResponseParty | null;
  code: ResponseCode;
  reasons: Clarification[];
  actions: Clarification[];
  note: string | null;
  reference: { id: string; issueDate: string | null; typeCode: string | null };
}

export interface ReadMessageLevelStatus {
  kind: 'mls';
  id: string;
  senderSpid: string | null;
  receiverSpid: string | null;
  code: MlsCode;
  description: string | null;
  referencedInstanceId: string;
  lines: { reason: string; description: string; lineId: string }[];
}

export type ReadApplicationResponse = ReadInvoiceResponse | ReadMessageLevelStatus | { unreadable: string };

const text = (element: XmlElement | undefined, ...steps: [string, string][]): string | null => {
  let current = element;
  for (const [namespace, name] of steps) current = current && childNamed(current, namespace, name);
  return current?.text ? current.text : null;
};
const CBC = NS.cbc;
const CAC = NS.cac;

function partyOf(root: XmlElement, role: string): ResponseParty | null {
  const party = childNamed(root, CAC, role);
  const endpointId = party && childNamed(party, CBC, 'EndpointID');
  if (!endpointId?.text) return null;
  const scheme = endpointId.attributes.schemeID;
  return {
    participantId: scheme ? `${scheme}:${endpointId.text}` : endpointId.text,
    name: text(party, [CAC, 'PartyLegalEntity'], [CBC, 'RegistrationName']) ?? '',
  };
}

const spidOf = (root: XmlElement, role: string): string | null => {
  const participant = partyOf(root, role)?.participantId;
  return participant?.startsWith(`${SPID_SCHEME}:`) ? participant.slice(SPID_SCHEME.length + 1) : null;
};

function clarificationsOf(response: XmlElement, listId: string): Clarification[] {
  return childrenNamed(response, CAC, 'Status').flatMap((status) => {
    const code = childNamed(status, CBC, 'StatusReasonCode');
    return code?.text && code.attributes.listID === listId
      ? [{ code: code.text, text: text(status, [CBC, 'StatusReason']) }]
      : [];
  });
}

/** Reads an ApplicationResponse: an Invoice Response or an MLS, or why it is neither. */
export function readApplicationResponse(xml: string): ReadApplicationResponse {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    if (err instanceof XmlError) return { unreadable: `not well-formed XML: ${err.message}` };
    throw err;
  }
  if (root.namespace !== APPLICATION_RESPONSE || root.name !== 'ApplicationResponse')
    return { unreadable: `not a UBL ApplicationResponse (root {${root.namespace}}${root.name})` };
  const customization = text(root, [CBC, 'CustomizationID']) ?? '';
  const documentResponse = childNamed(root, CAC, 'DocumentResponse');
  const response = documentResponse && childNamed(documentResponse, CAC, 'Response');
  const code = text(response, [CBC, 'ResponseCode']);
  const referenced = text(documentResponse, [CAC, 'DocumentReference'], [CBC, 'ID']);
  if (!response || !code || !referenced)
    return {
      unreadable: 'the ApplicationResponse has no DocumentResponse with a ResponseCode and a DocumentReference ID',
    };
  const id = text(root, [CBC, 'ID']) ?? '';

  if (customization.startsWith(INVOICE_RESPONSE_CUSTOMIZATION)) {
    if (!(RESPONSE_CODES as readonly string[]).includes(code))
      return { unreadable: `response code ${code} is not one of ${RESPONSE_CODES.join(', ')}` };
    return {
      kind: 'invoice_response',
      id,
      issueDate: text(root, [CBC, 'IssueDate']),
      sender: partyOf(root, 'SenderParty'),
      receiver: partyOf(root, 'ReceiverParty'),
      code: code as ResponseCode,
      reasons: clarificationsOf(response, 'OPStatusReason'),
      actions: clarificationsOf(response, 'OPStatusAction'),
      note: text(root, [CBC, 'Note']),
      reference: {
        id: referenced,
        issueDate: text(documentResponse, [CAC, 'DocumentReference'], [CBC, 'IssueDate']),
        typeCode: text(documentResponse, [CAC, 'DocumentReference'], [CBC, 'DocumentTypeCode']),
      },
    };
  }
  if (customization === MLS_CUSTOMIZATION) {
    if (!(MLS_CODES as readonly string[]).includes(code))
      return { unreadable: `MLS response code ${code} is not one of ${MLS_CODES.join(', ')}` };
    return {
      kind: 'mls',
      id,
      senderSpid: spidOf(root, 'SenderParty'),
      receiverSpid: spidOf(root, 'ReceiverParty'),
      code: code as MlsCode,
      description: text(response, [CBC, 'Description']),
      referencedInstanceId: referenced,
      // One LineResponse per line referred to, one Response in it per issue on that line (MLS 1.1.0's examples have two).
      lines: childrenNamed(documentResponse, CAC, 'LineResponse').flatMap((line) =>
        childrenNamed(line, CAC, 'Response').map((issue) => ({
          reason: text(issue, [CAC, 'Status'], [CBC, 'StatusReasonCode']) ?? '',
          description: text(issue, [CBC, 'Description']) ?? '',
          lineId: text(line, [CAC, 'LineReference'], [CBC, 'LineID']) ?? '',
        })),
      ),
    };
  }
  return {
    unreadable: `CustomizationID ${customization || '(none)'} is neither a Peppol Invoice Response nor a Message Level Status`,
  };
}
