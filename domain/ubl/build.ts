import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

import { formatAmount, money, type Amount, type CalculatedDocument, type TaxTreatment } from '../documents/calculate';
import type { DocumentInput, PartyInput } from '../documents/input';
import { legalIdScheme } from '../documents/legal-id';
import { paymentMeansCode, paymentTermsNote } from '../documents/payment';

/**
 * JSON document → Peppol BIS Billing 3.0 UBL Invoice or CreditNote. One
 * writer per aggregate with a fixed child order (the UBL XSD sequences,
 * reference part A.3–A.10); a value that is absent or empty is never written
 * (PEPPOL-EN16931-R008). xmlbuilder2 escapes all text.
 */

export const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

export interface UblAttachment {
  id: string;
  filename: string;
  mime_type: string;
  content: string;
  description?: string | undefined;
}

type Node = XMLBuilder;

/**
 * Text as XML has to say it to mean exactly what the JSON said.
 * xmlbuilder2 leaves anything that looks like an entity reference (`&amp;`,
 * `&#49;`) as it is, so every `&` is escaped first (text such as `INV&#49;`
 * would otherwise come out meaning `INV1`). A parser turns a carriage return
 * into a line feed, and in attributes also tabs and line feeds into spaces,
 * so those are written as character references. (Characters XML cannot
 * carry never get this far: the input schema refuses them, and `end` checks
 * well-formedness.)
 */
export const literal = (text: string) => text.replace(/&/g, '&amp;').replace(/\r/g, '&#13;');
export const literalAttribute = (text: string) => literal(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

/** A basic component, written only when it has a value (trimmed, unless asked to keep it as it is). */
export function cbc(parent: Node, name: string, value: string | undefined | null, attributes?: Record<string, string>, untrimmed = false): void {
  if (value === undefined || value === null || value.trim() === '') return;
  const escaped = attributes && Object.fromEntries(Object.entries(attributes).map(([key, attribute]) => [key, literalAttribute(attribute)]));
  parent.ele(NS.cbc, `cbc:${name}`, escaped).txt(literal(untrimmed ? value : value.trim()));
}

function hasChildren(node: Node): boolean {
  try {
    node.first();
    return true;
  } catch {
    return false;
  }
}

/** An aggregate, written only when its writer put something in it. */
export function aggregate(parent: Node, name: string, fill: (node: Node) => void): void {
  const node = parent.ele(NS.cac, `cac:${name}`);
  fill(node);
  if (!hasChildren(node)) node.remove();
}

/** A party; `creditorId` is the seller's bank-assigned creditor identifier (BT-90), which UBL keeps as a party identification in scheme SEPA. */
function party(parent: Node, input: PartyInput, creditorId?: string): void {
  aggregate(parent, 'Party', (node) => {
    const [scheme, ...rest] = (input.peppol_id ?? '').split(':');
    cbc(node, 'EndpointID', rest.join(':'), { schemeID: scheme ?? '' });
    aggregate(node, 'PartyIdentification', (identification) => cbc(identification, 'ID', creditorId, { schemeID: 'SEPA' }));
    aggregate(node, 'PartyName', (name) => cbc(name, 'Name', input.name));
    aggregate(node, 'PostalAddress', (address) => {
      cbc(address, 'StreetName', input.address?.street);
      cbc(address, 'CityName', input.address?.city);
      cbc(address, 'PostalZone', input.address?.postal_code);
      aggregate(address, 'Country', (country) => cbc(country, 'IdentificationCode', input.address?.country));
    });
    if (input.tax_id) {
      aggregate(node, 'PartyTaxScheme', (scheme) => {
        cbc(scheme, 'CompanyID', input.tax_id);
        aggregate(scheme, 'TaxScheme', (taxScheme) => cbc(taxScheme, 'ID', 'VAT'));
      });
    }
    aggregate(node, 'PartyLegalEntity', (legal) => {
      cbc(legal, 'RegistrationName', input.name);
      const scheme = legalIdScheme(input.address?.country, input.company_registration_id);
      cbc(legal, 'CompanyID', input.company_registration_id, scheme ? { schemeID: scheme } : undefined);
    });
    aggregate(node, 'Contact', (contact) => {
      cbc(contact, 'Name', input.contact_name);
      cbc(contact, 'Telephone', input.phone);
      cbc(contact, 'ElectronicMail', input.email);
    });
  });
}

function taxCategory(parent: Node, name: 'TaxCategory' | 'ClassifiedTaxCategory', tax: TaxTreatment, withExemption: boolean): void {
  aggregate(parent, name, (node) => {
    cbc(node, 'ID', tax.category);
    cbc(node, 'Percent', tax.rate);
    if (withExemption) {
      cbc(node, 'TaxExemptionReasonCode', tax.exemptionCode);
      cbc(node, 'TaxExemptionReason', tax.exemptionReason);
    }
    aggregate(node, 'TaxScheme', (scheme) => cbc(scheme, 'ID', 'VAT'));
  });
}

export function buildUbl(document: DocumentInput, calculated: CalculatedDocument, attachments: UblAttachment[] = []): string {
  const isInvoice = document.type === 'invoice';
  const root = isInvoice ? 'Invoice' : 'CreditNote';
  const currency = { currencyID: document.currency };
  const amount = (node: Node, name: string, value: Amount) => cbc(node, name, formatAmount(value), currency);

  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  cbc(xml, 'CustomizationID', CUSTOMIZATION_ID);
  cbc(xml, 'ProfileID', PROFILE_ID);
  cbc(xml, 'ID', document.number);
  cbc(xml, 'IssueDate', document.issue_date);
  if (isInvoice) {
    cbc(xml, 'DueDate', document.due_date);
    cbc(xml, 'InvoiceTypeCode', '380');
  } else {
    cbc(xml, 'CreditNoteTypeCode', '381');
  }
  cbc(xml, 'Note', document.note);
  cbc(xml, 'DocumentCurrencyCode', document.currency);
  cbc(xml, 'BuyerReference', document.buyer_reference);
  if (document.period) {
    aggregate(xml, 'InvoicePeriod', (period) => {
      cbc(period, 'StartDate', document.period?.start);
      cbc(period, 'EndDate', document.period?.end);
    });
  }
  aggregate(xml, 'OrderReference', (order) => cbc(order, 'ID', document.order_reference));
  if (document.invoice_reference) {
    aggregate(xml, 'BillingReference', (billing) =>
      aggregate(billing, 'InvoiceDocumentReference', (reference) => {
        cbc(reference, 'ID', document.invoice_reference?.number);
        cbc(reference, 'IssueDate', document.invoice_reference?.issue_date);
      }),
    );
  }
  if (document.greece) {
    // Where the Greek rules look for the MARK and the invoice URL (GR-R-004, GR-S-008).
    const { mark, invoice_url: url } = document.greece;
    aggregate(xml, 'AdditionalDocumentReference', (reference) => {
      cbc(reference, 'ID', mark);
      cbc(reference, 'DocumentDescription', '##M.AR.K##');
    });
    if (url) {
      aggregate(xml, 'AdditionalDocumentReference', (reference) => {
        cbc(reference, 'ID', 'INVOICE-URL');
        cbc(reference, 'DocumentDescription', '##INVOICE|URL##');
        aggregate(reference, 'Attachment', (node) => aggregate(node, 'ExternalReference', (external) => cbc(external, 'URI', url)));
      });
    }
  }
  for (const attachment of attachments) {
    aggregate(xml, 'AdditionalDocumentReference', (reference) => {
      cbc(reference, 'ID', attachment.id);
      cbc(reference, 'DocumentDescription', attachment.description);
      aggregate(reference, 'Attachment', (node) =>
        cbc(node, 'EmbeddedDocumentBinaryObject', attachment.content, { mimeCode: attachment.mime_type, filename: attachment.filename }),
      );
    });
  }
  aggregate(xml, 'AccountingSupplierParty', (node) => party(node, document.from, document.payment?.creditor_id));
  aggregate(xml, 'AccountingCustomerParty', (node) => party(node, document.to));
  const delivery = document.delivery;
  if (delivery) {
    aggregate(xml, 'Delivery', (node) => {
      cbc(node, 'ActualDeliveryDate', delivery.date);
      aggregate(node, 'DeliveryLocation', (location) =>
        aggregate(location, 'Address', (address) => {
          cbc(address, 'StreetName', delivery.street);
          cbc(address, 'CityName', delivery.city);
          cbc(address, 'PostalZone', delivery.postal_code);
          aggregate(address, 'Country', (country) => cbc(country, 'IdentificationCode', delivery.country));
        }),
      );
    });
  }
  const payment = document.payment;
  const creditNoteDueDate = isInvoice ? undefined : document.due_date;
  const meansCode = paymentMeansCode(document);
  if (meansCode !== undefined) {
    aggregate(xml, 'PaymentMeans', (means) => {
      cbc(means, 'PaymentMeansCode', meansCode);
      cbc(means, 'PaymentDueDate', creditNoteDueDate);
      cbc(means, 'PaymentID', payment?.reference);
      if (payment?.iban) {
        aggregate(means, 'PayeeFinancialAccount', (account) => {
          cbc(account, 'ID', payment.iban);
          aggregate(account, 'FinancialInstitutionBranch', (branch) => cbc(branch, 'ID', payment.bic));
        });
      }
      aggregate(means, 'PaymentMandate', (mandate) => {
        cbc(mandate, 'ID', payment?.mandate_reference);
        aggregate(mandate, 'PayerFinancialAccount', (account) => cbc(account, 'ID', payment?.debited_account));
      });
    });
  }
  aggregate(xml, 'PaymentTerms', (terms) => cbc(terms, 'Note', payment?.terms && paymentTermsNote(payment.terms), undefined, true));
  for (const entry of calculated.allowancesCharges) {
    aggregate(xml, 'AllowanceCharge', (node) => {
      cbc(node, 'ChargeIndicator', entry.isCharge ? 'true' : 'false');
      cbc(node, 'AllowanceChargeReasonCode', entry.input.reason_code);
      cbc(node, 'AllowanceChargeReason', entry.input.reason);
      amount(node, 'Amount', entry.amount);
      taxCategory(node, 'TaxCategory', entry.tax, false);
    });
  }
  // Category O has no rate (BR-O-05…07) and its breakdown needs none (BR-48), but between German parties
  // every breakdown has one (DE-R-014): there the breakdown of O says 0, its items still say nothing.
  const germanDomestic = document.from.address?.country === 'DE' && document.to.address?.country === 'DE';
  aggregate(xml, 'TaxTotal', (total) => {
    amount(total, 'TaxAmount', calculated.totals.tax);
    for (const group of calculated.taxGroups) {
      aggregate(total, 'TaxSubtotal', (subtotal) => {
        amount(subtotal, 'TaxableAmount', group.taxable);
        amount(subtotal, 'TaxAmount', group.tax);
        taxCategory(subtotal, 'TaxCategory', germanDomestic && group.rate === null ? { ...group, rate: '0' } : group, true);
      });
    }
  });
  const totals = calculated.totals;
  aggregate(xml, 'LegalMonetaryTotal', (node) => {
    amount(node, 'LineExtensionAmount', totals.lineExtension);
    amount(node, 'TaxExclusiveAmount', totals.taxExclusive);
    amount(node, 'TaxInclusiveAmount', totals.taxInclusive);
    // Present whenever there is an allowance (a charge), even one of 0: BR-CO-11 and BR-CO-12 want the sum then.
    const has = (isCharge: boolean) => calculated.allowancesCharges.some((entry) => entry.isCharge === isCharge);
    if (has(false) || !totals.allowanceTotal.isZero()) amount(node, 'AllowanceTotalAmount', totals.allowanceTotal);
    if (has(true) || !totals.chargeTotal.isZero()) amount(node, 'ChargeTotalAmount', totals.chargeTotal);
    if (!totals.prepaid.isZero()) amount(node, 'PrepaidAmount', totals.prepaid);
    if (!totals.rounding.isZero()) amount(node, 'PayableRoundingAmount', totals.rounding);
    amount(node, 'PayableAmount', totals.payable);
  });
  calculated.lines.forEach((line, index) => {
    aggregate(xml, isInvoice ? 'InvoiceLine' : 'CreditNoteLine', (node) => {
      cbc(node, 'ID', String(index + 1));
      cbc(node, 'Note', line.input.note);
      cbc(node, isInvoice ? 'InvoicedQuantity' : 'CreditedQuantity', line.input.quantity, { unitCode: line.input.unit });
      amount(node, 'LineExtensionAmount', line.net);
      for (const [isCharge, entries] of [
        [false, line.input.allowances ?? []],
        [true, line.input.charges ?? []],
      ] as const) {
        for (const entry of entries) {
          aggregate(node, 'AllowanceCharge', (charge) => {
            cbc(charge, 'ChargeIndicator', isCharge ? 'true' : 'false');
            cbc(charge, 'AllowanceChargeReasonCode', entry.reason_code);
            cbc(charge, 'AllowanceChargeReason', entry.reason);
            amount(charge, 'Amount', money(entry.amount));
          });
        }
      }
      aggregate(node, 'Item', (item) => {
        cbc(item, 'Name', line.input.description);
        aggregate(item, 'SellersItemIdentification', (id) => cbc(id, 'ID', line.input.item_id));
        taxCategory(item, 'ClassifiedTaxCategory', line.tax, false);
      });
      aggregate(node, 'Price', (price) => cbc(price, 'PriceAmount', line.input.unit_price, currency));
    });
  });
  return xml.end({ prettyPrint: true, wellFormed: true });
}
