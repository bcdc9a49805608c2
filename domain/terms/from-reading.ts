import { profileIds } from '../ubl/xml';
import type { ReceivedUbl } from '../ubl/received-view';
import { lineNet, money } from '../documents/calculate';
import { paymentTermsNote } from '../documents/payment';
import type { TermAttachment, TermDocument, TermLine, TermVatBreakdown } from './document';

/**
 * A document as read (domain/ubl/received-reader.ts, domain/cii/read.ts) as its terms: the JSON view
 * with the totals, the VAT breakdown and the line nets the document states, kept
 * as stated, never computed again. So a document converted to another
 * syntax states the amounts it states, to the cent. Where it
 * states no line net (it must, BR-24), the JSON view's quantity × price
 * with the line's allowances and charges stands in.
 */

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const nonZero = (value: string | null) => (value === null || money(value).isZero() ? undefined : value);

/** The breakdown as stated, with the exemption reason its category's items carry (the JSON view puts it on them). */
function breakdownOf(read: ReceivedUbl): TermVatBreakdown[] {
  const { document } = read;
  const items = [...document.lines, ...(document.allowances ?? []), ...(document.charges ?? [])];
  return read.stated_totals.tax_breakdown.map((group) => {
    const item = items.find(
      (candidate) =>
        candidate.tax_category === group.category &&
        (candidate.tax_exemption_reason || candidate.tax_exemption_reason_code),
    );
    return {
      category: group.category ?? '',
      rate: orUndefined(group.rate),
      taxable: group.taxable ?? '',
      tax: group.tax ?? '',
      exemption_reason: item?.tax_exemption_reason,
      exemption_reason_code: item?.tax_exemption_reason_code,
    };
  });
}

export function termsOfReading(read: ReceivedUbl): TermDocument {
  const { document, stated_totals: totals } = read;
  const lines = document.lines.map((line, index): TermLine => ({
    ...line,
    id: String(index + 1),
    net: read.stated_line_nets[index] ?? lineNet(line).toFixed(2),
    unit: line.unit ?? 'C62',
  }));
  const attachments = read.attachments.flatMap((attachment, index): TermAttachment[] =>
    attachment.filename && attachment.mime_code
      ? [
          {
            id: attachment.id ?? `ATT-${index + 1}`,
            filename: attachment.filename,
            mime_type: attachment.mime_code,
            content: attachment.content.toString('base64'),
            description: attachment.description,
          },
        ]
      : [],
  );
  return {
    ...document,
    // A cash-discount statement ends with a line break (DE-R-018, BR-DE-18), which the view's trimmed text cannot hold.
    payment: document.payment && {
      ...document.payment,
      terms: document.payment.terms && paymentTermsNote(document.payment.terms),
    },
    ...profileIds(document.profile),
    type_code: read.kind === 'invoice' ? '380' : '381',
    currency: document.currency ?? '',
    lines,
    attachments: attachments.length > 0 ? attachments : undefined,
    totals: {
      line_extension: totals.line_extension ?? '',
      allowance_total: orUndefined(totals.allowance_total),
      charge_total: orUndefined(totals.charge_total),
      tax_exclusive: totals.tax_exclusive ?? '',
      tax: totals.tax ?? '',
      tax_inclusive: totals.tax_inclusive ?? '',
      prepaid: nonZero(totals.prepaid),
      payable_rounding: nonZero(totals.payable_rounding),
      payable: totals.payable ?? '',
    },
    vat_breakdown: breakdownOf(read),
  };
}
