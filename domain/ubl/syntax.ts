import { stepTexts } from '../terms/paths';
import type { XmlSyntax } from '../terms/syntax';
import type { Term, TermGroup } from '../terms/table';
import { NS } from './xml';

/**
 * UBL 2.1 as Peppol BIS Billing 3.0 uses it: the term table's UBL paths,
 * with a credit note's own names, and the XSD sequences of the aggregates
 * the table uses (UBL 2.1, reference part A.3–A.10 of the BIS).
 */

/** Where a credit note names an element otherwise; its due date (BT-9) sits in the payment means. */
const CREDIT_NOTE_STEPS: Record<string, string> = {
  'cbc:InvoiceTypeCode': 'cbc:CreditNoteTypeCode',
  'cac:InvoiceLine': 'cac:CreditNoteLine',
  'cbc:InvoicedQuantity': 'cbc:CreditedQuantity',
  'cbc:DueDate': 'cac:PaymentMeans/cbc:PaymentDueDate',
};

function pathFor(holder: Term | TermGroup, type: 'invoice' | 'credit_note'): string {
  if (type === 'invoice') return holder.ubl;
  return stepTexts(holder.ubl)
    .map((step) => CREDIT_NOTE_STEPS[step] ?? step)
    .join('/');
}

const ROOT = [
  'cbc:CustomizationID',
  'cbc:ProfileID',
  'cbc:ID',
  'cbc:IssueDate',
  'cbc:DueDate',
  'cbc:InvoiceTypeCode',
  'cbc:CreditNoteTypeCode',
  'cbc:Note',
  'cbc:DocumentCurrencyCode',
  'cbc:BuyerReference',
  'cac:InvoicePeriod',
  'cac:OrderReference',
  'cac:BillingReference',
  'cac:AdditionalDocumentReference',
  'cac:AccountingSupplierParty',
  'cac:AccountingCustomerParty',
  'cac:Delivery',
  'cac:PaymentMeans',
  'cac:PaymentTerms',
  'cac:AllowanceCharge',
  'cac:TaxTotal',
  'cac:LegalMonetaryTotal',
  'cac:InvoiceLine',
  'cac:CreditNoteLine',
];
const ADDRESS = ['cbc:StreetName', 'cbc:CityName', 'cbc:PostalZone', 'cac:Country'];
const TAX_CATEGORY = ['cbc:ID', 'cbc:Percent', 'cbc:TaxExemptionReasonCode', 'cbc:TaxExemptionReason', 'cac:TaxScheme'];
const ALLOWANCE_CHARGE = [
  'cbc:ChargeIndicator',
  'cbc:AllowanceChargeReasonCode',
  'cbc:AllowanceChargeReason',
  'cbc:Amount',
  'cac:TaxCategory',
];
const LINE = [
  'cbc:ID',
  'cbc:Note',
  'cbc:InvoicedQuantity',
  'cbc:CreditedQuantity',
  'cbc:LineExtensionAmount',
  'cac:AllowanceCharge',
  'cac:Item',
  'cac:Price',
];

const SEQUENCES: Record<string, readonly string[]> = {
  Invoice: ROOT,
  CreditNote: ROOT,
  'cac:InvoicePeriod': ['cbc:StartDate', 'cbc:EndDate'],
  'cac:InvoiceDocumentReference': ['cbc:ID', 'cbc:IssueDate'],
  'cac:AdditionalDocumentReference': ['cbc:ID', 'cbc:DocumentDescription', 'cac:Attachment'],
  'cac:Attachment': ['cbc:EmbeddedDocumentBinaryObject', 'cac:ExternalReference'],
  'cac:Party': [
    'cbc:EndpointID',
    'cac:PartyIdentification',
    'cac:PartyName',
    'cac:PostalAddress',
    'cac:PartyTaxScheme',
    'cac:PartyLegalEntity',
    'cac:Contact',
  ],
  'cac:PostalAddress': ADDRESS,
  'cac:Address': ADDRESS,
  'cac:PartyTaxScheme': ['cbc:CompanyID', 'cac:TaxScheme'],
  'cac:PartyLegalEntity': ['cbc:RegistrationName', 'cbc:CompanyID'],
  'cac:Contact': ['cbc:Name', 'cbc:Telephone', 'cbc:ElectronicMail'],
  'cac:Delivery': ['cbc:ActualDeliveryDate', 'cac:DeliveryLocation'],
  'cac:PaymentMeans': [
    'cbc:PaymentMeansCode',
    'cbc:PaymentDueDate',
    'cbc:PaymentID',
    'cac:PayeeFinancialAccount',
    'cac:PaymentMandate',
  ],
  'cac:PayeeFinancialAccount': ['cbc:ID', 'cac:FinancialInstitutionBranch'],
  'cac:PaymentMandate': ['cbc:ID', 'cac:PayerFinancialAccount'],
  'cac:AllowanceCharge': ALLOWANCE_CHARGE,
  'cac:TaxCategory': TAX_CATEGORY,
  'cac:ClassifiedTaxCategory': TAX_CATEGORY,
  'cac:TaxTotal': ['cbc:TaxAmount', 'cac:TaxSubtotal'],
  'cac:TaxSubtotal': ['cbc:TaxableAmount', 'cbc:TaxAmount', 'cac:TaxCategory'],
  'cac:LegalMonetaryTotal': [
    'cbc:LineExtensionAmount',
    'cbc:TaxExclusiveAmount',
    'cbc:TaxInclusiveAmount',
    'cbc:AllowanceTotalAmount',
    'cbc:ChargeTotalAmount',
    'cbc:PrepaidAmount',
    'cbc:PayableRoundingAmount',
    'cbc:PayableAmount',
  ],
  'cac:InvoiceLine': LINE,
  'cac:CreditNoteLine': LINE,
  'cac:Item': ['cbc:Name', 'cac:SellersItemIdentification', 'cac:ClassifiedTaxCategory'],
  'cac:Price': ['cbc:PriceAmount', 'cbc:BaseQuantity'],
};

/** The document's tax scheme (TermDocument.taxScheme): VAT, GST for PINT A-NZ. */
const VAT_SCHEME = { 'cac:TaxScheme/cbc:ID': '$taxScheme' };

const CATEGORY_LIST = { 'cbc:ID/@schemeID': 'UNCL5305' };

export const UBL_SYNTAX: XmlSyntax = {
  name: 'ubl',
  namespaces: { cac: NS.cac, cbc: NS.cbc },
  root: (type) =>
    type === 'invoice' ? { name: 'Invoice', namespace: NS.Invoice } : { name: 'CreditNote', namespace: NS.CreditNote },
  path: pathFor,
  fixed: (group) => group.fixed?.ubl ?? {},
  date: (value) => value,
  readDate: (text) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined),
  sequences: SEQUENCES,
  companions: {
    'cac:PartyTaxScheme': VAT_SCHEME,
    'cac:TaxCategory': VAT_SCHEME,
    'cac:ClassifiedTaxCategory': VAT_SCHEME,
  },
  // The code list a VAT category comes from in any case.
  implied: { 'cac:TaxCategory': CATEGORY_LIST, 'cac:ClassifiedTaxCategory': CATEGORY_LIST },
  always: [],
};
