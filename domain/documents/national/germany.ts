import { paymentMeansCode, paymentTermsNote } from '../payment';
import { requireAddress, type NationalContext } from './context';

/**
 * Rules DE-R-* for documents between a seller and a buyer both with a German
 * address. Some are checked under their EN 16931 names already: DE-R-016
 * (seller VAT id, BR-S-02 …), DE-R-023-1 (account for 30/58, BR-61) and
 * DE-R-025-1/030/031 (direct debit, refused as PEPPOL-EN16931-R061).
 * DE-R-014 (a rate in every VAT breakdown) is met by the UBL writer, which
 * gives the breakdown of category O a rate of 0 between German parties.
 */

/** A cash-discount line of the payment terms (XRechnung convention), as DE-R-018 reads it. */
const SKONTO_LINE = /^#SKONTO#TAGE=[0-9]+#PROZENT=[0-9]+\.[0-9]{2}(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
const LINE_BREAK = /\r?\n/;
const SPACES = /\s+/g;
const TAGGED = /#.+#/g;
const CARD_MEANS = new Set(['48', '54', '55']);
const STARTS_WITH_LINE_BREAK = /^\s*\n/;

export function germany(context: NationalContext): void {
  const { document, out } = context;
  if (context.sellerAddressCountry !== 'DE' || context.buyerAddressCountry !== 'DE') return;
  if (!document.buyer_reference) {
    out.push({
      path: 'buyer_reference',
      rule: 'DE-R-015',
      message: 'Between German parties the buyer reference (e.g. the Leitweg-ID of a public buyer) is required.',
    });
  }
  sellerContact(document, out);
  addresses(document, out);
  paymentMeans(document, out);
  checkSkonto(context);
  distinctAttachmentNames(document, out);
}

/** DE-R-002, -005, -006, -007: the seller's contact point, telephone and email. */
function sellerContact(document: NationalContext['document'], out: NationalContext['out']): void {
  const who = 'Between German parties, the seller';
  const from = document.from;
  if (!from.contact_name && !from.phone && !from.email) {
    out.push({
      path: 'from.contact_name',
      rule: 'DE-R-002',
      message: `${who} names a contact: from.contact_name, from.phone and from.email.`,
    });
  } else {
    if (!from.contact_name)
      out.push({
        path: 'from.contact_name',
        rule: 'DE-R-005',
        message: `${who} names a contact point: send from.contact_name.`,
      });
    if (!from.phone)
      out.push({
        path: 'from.phone',
        rule: 'DE-R-006',
        message: `${who} gives a contact telephone number: send from.phone.`,
      });
    if (!from.email)
      out.push({
        path: 'from.email',
        rule: 'DE-R-007',
        message: `${who} gives a contact email address: send from.email or set it on the company.`,
      });
  }
}

/** DE-R-003, -004, -008 to -011: the parties' cities and postal codes, and a deliver-to address's. */
function addresses(document: NationalContext['document'], out: NationalContext['out']): void {
  const from = document.from;
  requireAddress(from, 'from', { city: 'DE-R-003', postal_code: 'DE-R-004' }, 'Between German parties the seller', out);
  requireAddress(
    document.to,
    'to',
    { city: 'DE-R-008', postal_code: 'DE-R-009' },
    'Between German parties the buyer',
    out,
  );
  const delivery = document.delivery;
  if (delivery && (delivery.street || delivery.city || delivery.postal_code || delivery.country)) {
    if (!delivery.city)
      out.push({
        path: 'delivery.city',
        rule: 'DE-R-010',
        message: 'Between German parties a deliver-to address has its city.',
      });
    if (!delivery.postal_code)
      out.push({
        path: 'delivery.postal_code',
        rule: 'DE-R-011',
        message: 'Between German parties a deliver-to address has its postal code.',
      });
  }
}

/** DE-R-001, DE-R-024-1: payment instructions, and no card payment without its details. */
function paymentMeans(document: NationalContext['document'], out: NationalContext['out']): void {
  const code = paymentMeansCode(document);
  if (code === undefined) {
    out.push({
      path: 'payment.iban',
      rule: 'DE-R-001',
      message:
        'Between German parties the document carries payment instructions: send payment.iban (or set an IBAN on the company).',
    });
  } else if (CARD_MEANS.has(code)) {
    out.push({
      path: 'payment.means_code',
      rule: 'DE-R-024-1',
      message: `Payment means ${code} (card) needs card details, which this API does not take; use 30 or 58.`,
    });
  }
}

/** DE-R-022: every attachment has its own file name. */
function distinctAttachmentNames(document: NationalContext['document'], out: NationalContext['out']): void {
  const seen = new Set<string>();
  (document.attachments ?? []).forEach((attachment, index) => {
    if (seen.has(attachment.filename)) {
      out.push({
        path: `attachments[${index}].filename`,
        rule: 'DE-R-022',
        message: 'Between German parties every attachment has its own file name.',
      });
    }
    seen.add(attachment.filename);
  });
}

/**
 * Cash discounts in the payment terms: each line that starts with # is one
 * #SKONTO#…# statement, and the terms go on with a line break after the last
 * (the UBL writer adds one when the terms end with it).
 */
function checkSkonto({ document, out }: NationalContext): void {
  const terms = document.payment?.terms;
  if (!terms?.includes('#')) return;
  const statements = terms
    .split(LINE_BREAK)
    .map((line) => line.replace(SPACES, ' ').trim())
    .filter((line) => line.startsWith('#'));
  if (statements.length === 0) return;
  const wellFormed = statements.every((line) => SKONTO_LINE.test(line));
  const written = paymentTermsNote(terms);
  const tail = written.split(TAGGED).at(-1) ?? '';
  if (!wellFormed || !STARTS_WITH_LINE_BREAK.test(tail)) {
    out.push({
      path: 'payment.terms',
      rule: 'DE-R-018',
      message:
        'A cash discount is written on a line of its own as #SKONTO#TAGE=14#PROZENT=2.00# (optionally #BASISBETRAG=100.00# before the last #), in capitals, without spaces.',
    });
  }
}
