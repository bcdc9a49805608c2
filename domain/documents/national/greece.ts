import { isGreekTin } from './checksums';
import type { NationalContext } from './context';

/**
 * Rules GR-R-* for Greek sellers (by VAT id, EL, else address). The MARK
 * (GR-R-004) and the invoice URL have no place in EN 16931, so the API takes
 * them in `greece` and writes them as the supporting documents the Greek
 * rules look for. GR-R-002/005 (names) are BR-06/BR-07; GR-R-008-2/3 (one
 * invoice URL with its URI) cannot be broken through this API.
 */

const isGreek = (country: string) => country === 'GR' || country === 'EL';
const GREEK_DOCUMENT_TYPES = new Set(['1.1', '1.6', '2.1', '2.4', '5.1', '5.2']);
const NON_NEGATIVE_INTEGER = /^\s*\+?\d+\s*$|^\s*-0+\s*$/;
const MARK = /^[1-9]/;
const GREEK_ENDPOINT = /^9933:(.*)$/;
const SEGMENT = '|';

export function greece(context: NationalContext): void {
  const { document, out } = context;
  if (!isGreek(context.supplierCountry)) return;
  const sellerVat = document.from.tax_id;
  if (sellerVat && !(sellerVat.startsWith('EL') && isGreekTin(sellerVat.slice(2)))) {
    out.push({
      path: 'from.tax_id',
      rule: 'GR-R-003',
      message: 'A Greek seller’s VAT identifier is EL and its 9-digit TIN (AFM), e.g. EL123456783.',
    });
  }
  checkNumber(context);
  if (context.sellerAddressCountry === 'GR') {
    const mark = document.greece?.mark;
    if (!mark) {
      out.push({
        path: 'greece.mark',
        rule: 'GR-R-004-1',
        message: 'A Greek seller sends the MARK number myDATA gave the invoice (greece.mark).',
      });
    } else if (!MARK.test(mark)) {
      out.push({ path: 'greece.mark', rule: 'GR-R-004-2', message: 'The MARK number is a positive integer.' });
    }
  }
  if (!isTinEndpoint(document.from.peppol_id)) {
    out.push({
      path: 'from.peppol_id',
      rule: 'GR-R-009',
      message: 'A Greek seller’s Peppol id is its TIN under scheme 9933, e.g. 9933:123456783.',
    });
  }
  if (isGreek(context.customerCountry)) {
    const buyerVat = document.to.tax_id;
    if (!buyerVat?.startsWith('EL') || !isGreekTin(buyerVat.slice(2))) {
      out.push({
        path: 'to.tax_id',
        rule: 'GR-R-006',
        message: 'A Greek seller gives a Greek buyer’s VAT identifier: EL and its 9-digit TIN.',
      });
    }
    if (!isTinEndpoint(document.to.peppol_id)) {
      out.push({
        path: 'to.peppol_id',
        rule: 'GR-R-010',
        message: 'A Greek buyer of a Greek seller is addressed by its TIN under scheme 9933, e.g. 9933:123456783.',
      });
    }
  }
}

function isTinEndpoint(peppolId: string | undefined): boolean {
  const tin = peppolId === undefined ? undefined : GREEK_ENDPOINT.exec(peppolId)?.[1];
  return tin !== undefined && isGreekTin(tin);
}

/**
 * A Greek invoice number has six segments separated by |: the seller's TIN,
 * the issue date as DD/MM/YYYY, the branch (an integer, 0 for the head
 * office), the Greek document type (1.1, 1.6, 2.1, 2.4, 5.1 or 5.2), the
 * series and the sequence number, e.g. 123456783|20/11/2026|0|1.1|A|42.
 */
function checkNumber({ document, out }: NationalContext): void {
  const segments = document.number.split(SEGMENT);
  const refuse = (rule: string, message: string) => out.push({ path: 'number', rule, message });
  if (segments.length !== 6)
    refuse(
      'GR-R-001-1',
      'A Greek invoice number has 6 segments separated by |: TIN|DD/MM/YYYY|branch|document type|series|number, e.g. 123456783|20/11/2026|0|1.1|A|42.',
    );
  // A number without any | is not in the Greek form at all: the message above says everything, the segment rules would only repeat it.
  if (segments.length === 1) return;
  const [tin = '', date = '', branch = '', type = '', series = '', sequence = ''] = segments;
  const sellerTin = document.from.tax_id?.slice(2, 11);
  if (tin.trim().length !== 9 || !isGreekTin(tin) || tin !== sellerTin) {
    refuse('GR-R-001-2', 'The first segment of a Greek invoice number is the seller’s TIN, as in its VAT identifier.');
  }
  const [year, month, day] = document.issue_date.split('-');
  if (date !== `${day}/${month}/${year}`)
    refuse(
      'GR-R-001-3',
      `The second segment of a Greek invoice number is the issue date as DD/MM/YYYY (${day}/${month}/${year}).`,
    );
  if (!NON_NEGATIVE_INTEGER.test(branch))
    refuse('GR-R-001-4', 'The third segment of a Greek invoice number is the branch, an integer of 0 or more.');
  if (!GREEK_DOCUMENT_TYPES.has(type))
    refuse(
      'GR-R-001-5',
      'The fourth segment of a Greek invoice number is the document type: 1.1, 1.6, 2.1, 2.4, 5.1 or 5.2.',
    );
  if (series.length === 0)
    refuse('GR-R-001-6', 'The fifth segment of a Greek invoice number (the series) cannot be empty.');
  if (sequence.length === 0)
    refuse('GR-R-001-7', 'The sixth segment of a Greek invoice number (the sequence number) cannot be empty.');
}
