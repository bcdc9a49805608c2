import { decodeBase64 } from '../documents/attachments';
import { EXEMPT_CATEGORIES, money } from '../documents/calculate';
import { documentInputSchema, type TaxCategory } from '../documents/input';
import type { DocumentJson, ReceivedAttachment, ReceivedUbl, StatedTotals } from '../ubl/received-view';
import {
  implied,
  nonEmpty,
  pricePerUnit,
  remarkOtherLineNet,
  stated,
  type JsonPath,
  type Reading,
} from '../ubl/accounted-reader';
import { CUSTOMIZATION_ID, profileIds, profileOf } from '../ubl/xml';
import type { TermAttachment, TermDocument, TermLine, TermParty, TermVatBreakdown } from './document';
import type { TermReader } from './read';

/**
 * A document's terms as the table reader read them (read.ts), in any
 * syntax, turned into the JSON view a client posts: what the view leaves to
 * the service (totals, the breakdown, line nets and ids) goes beside it as
 * stated; what the view holds otherwise is put its way (a price per base
 * quantity per unit, an exemption reason on each item of its category, the
 * Greek references as `greece`); and what it cannot hold is named in the
 * reading's `unmapped`, on the element it came from.
 */

type Json = Record<string, unknown>;
type AttachmentJson = NonNullable<DocumentJson['attachments']>[number];

/** The descriptions the Greek MARK and invoice URL references carry (GR-R-004, GR-S-008; from-input.ts writes them). */
const GREEK_MARK = '##M.AR.K##';
const GREEK_URL = '##INVOICE|URL##';

export function documentView(
  reader: TermReader,
  r: Reading,
  terms: Partial<TermDocument>,
  kind: ReceivedUbl['kind'],
): ReceivedUbl {
  implied(r, reader.elementAt(['type_code']), kind === 'invoice' ? '380' : '381');
  const profile = profileOf(terms.specification);
  if (!profile) implied(r, reader.elementAt(['specification']), CUSTOMIZATION_ID);
  implied(r, reader.elementAt(['process']), profileIds(profile).process);
  const breakdown = terms.vat_breakdown ?? [];
  const totals = (terms.totals ?? {}) as Partial<TermDocument['totals']>;
  const exemptions = new ExemptionReasons(reader, r, breakdown);
  const lines = ((terms.lines ?? []) as Partial<TermLine>[]).map((line, index) =>
    lineView(reader, r, line, index, exemptions),
  );
  const { greece, supporting } = greekReferences(terms.attachments ?? []);
  const attachments = supporting.flatMap(({ attachment, index }) => attachmentOf(reader, r, attachment, index));
  const carried = attachments.filter(({ json }) => json);
  // The view's attachments are the embedded files only: each value's source is remembered at its place among them.
  carried.forEach(({ index }, position) => {
    for (const field of ['filename', 'mime_type', 'content', 'description']) {
      const element = reader.elementAt(['attachments', index, field]);
      if (element) r.remember(['attachments', position, field], element);
    }
  });
  const {
    specification: _specification,
    process: _process,
    type_code: _typeCode,
    vat_breakdown: _breakdown,
    totals: _totals,
    from,
    to,
    period,
    ...rest
  } = terms;
  const document: DocumentJson = stated({
    ...(rest as Json),
    type: kind,
    profile: profile === 'peppol' ? undefined : profile,
    period: period && periodView(reader, r, period),
    from: from && partyView(reader, r, from, 'from'),
    to: to && partyView(reader, r, to, 'to'),
    lines: lines.map(({ line }) => line),
    allowances: terms.allowances?.map((entry, index) => exemptions.on(entry, ['allowances', index])),
    charges: terms.charges?.map((entry, index) => exemptions.on(entry, ['charges', index])),
    payment: nonEmpty({
      ...terms.payment,
      prepaid_amount: totals.prepaid,
      rounding_amount:
        totals.payable_rounding && !money(totals.payable_rounding).isZero() ? totals.payable_rounding : undefined,
    }),
    attachments: carried.length > 0 ? carried.map(({ json }) => json!) : undefined,
    greece,
  } as DocumentJson);
  dropWhatTheSchemaRefuses(r, document);
  return {
    kind,
    document,
    stated_totals: statedTotals(totals, breakdown),
    stated_line_nets: lines.map(({ net }) => net ?? null),
    attachments: attachments.map(({ received }) => received),
    unmapped: r.unmapped(),
  };
}

/**
 * The JSON view puts an exempt category's reason (BT-120, BT-121) on each item of that category, not on its
 * breakdown (each such category has one subtotal: BR-E-01, BR-AE-01 …); each is remembered as coming from the
 * breakdown's element, so one the input schema refuses is left out and named there.
 */
class ExemptionReasons {
  constructor(
    private readonly reader: TermReader,
    private readonly r: Reading,
    private readonly breakdown: Partial<TermVatBreakdown>[],
  ) {}

  on<T extends { tax_category?: string | undefined }>(item: T, at: JsonPath): T {
    if (!EXEMPT_CATEGORIES.has(item.tax_category as TaxCategory)) return item;
    const index = this.breakdown.findIndex((group) => group.category === item.tax_category);
    if (index < 0) return item;
    for (const [field, term] of [
      ['tax_exemption_reason', 'exemption_reason'],
      ['tax_exemption_reason_code', 'exemption_reason_code'],
    ] as const) {
      const element = this.reader.elementAt(['vat_breakdown', index, term]);
      if (element) this.r.remember([...at, field], element);
    }
    const group = this.breakdown[index]!;
    return stated({
      ...item,
      tax_exemption_reason: group.exemption_reason,
      tax_exemption_reason_code: group.exemption_reason_code,
    });
  }
}

/** Both ends or none: the JSON view's period has both. */
function periodView(
  reader: TermReader,
  r: Reading,
  period: Partial<NonNullable<DocumentJson['period']>>,
): DocumentJson['period'] {
  if (period.start !== undefined && period.end !== undefined) return { start: period.start, end: period.end };
  const [end, missing] = period.start === undefined ? (['end', 'start'] as const) : (['start', 'end'] as const);
  const element = reader.elementAt(['period', end]);
  if (element)
    r.remark(
      element,
      `a period without ${missing === 'end' ? 'an end' : 'a start'}; the JSON view takes start and end together`,
    );
  return undefined;
}

/**
 * The JSON view has one name for a party (the legal one, BT-27/BT-44): a trading name that repeats it is
 * understood, another one named; one without a legal name is known by its trading name. An address needs a
 * country in the view: one without is left out and named.
 */
function partyView(reader: TermReader, r: Reading, party: TermParty, at: 'from' | 'to'): DocumentJson['from'] {
  const { trading_name: tradingName, ...view } = party;
  const name = view.name ?? tradingName;
  const tradingElement = reader.elementAt([at, 'trading_name']);
  if (tradingName !== undefined && tradingName !== name && tradingElement)
    r.remark(tradingElement, `a trading name other than the name (${name ?? 'none'}); the JSON view has one name`);
  const address = view.address as Partial<NonNullable<TermParty['address']>> | undefined;
  if (address && address.country === undefined) {
    const element = (['street', 'city', 'postal_code'] as const)
      .map((field) => reader.elementAt([at, 'address', field]))
      .find(Boolean);
    if (element) r.remark(element, 'an address without a country; the JSON view needs one for an address');
    delete view.address;
  }
  return stated({ ...view, name });
}

function lineView(
  reader: TermReader,
  r: Reading,
  line: Partial<TermLine>,
  index: number,
  exemptions: ExemptionReasons,
) {
  const { id, net, price_base_quantity: baseQuantity, price_base_unit: baseUnit, ...json } = line;
  const at = ['lines', index];
  const baseElement = reader.elementAt([...at, 'price_base_quantity']);
  json.unit_price = pricePerUnit(
    r,
    json.unit_price as string | undefined,
    baseElement && { element: baseElement, quantity: baseQuantity, unit: baseUnit },
    json.unit,
  );
  const idElement = reader.elementAt([...at, 'id']);
  if (id !== undefined && id !== String(index + 1) && idElement)
    r.remark(idElement, 'line ids other than 1, 2, 3 …; the JSON view numbers lines by position');
  const quantityElement = reader.elementAt([...at, 'quantity']);
  if (json.unit === undefined && quantityElement)
    r.remark(quantityElement, 'no unitCode; the JSON view then says C62 (one)');
  const netElement = reader.elementAt([...at, 'net']);
  if (net !== undefined && json.quantity !== undefined && json.unit_price !== undefined && netElement)
    remarkOtherLineNet(r, netElement, net, json);
  return { line: exemptions.on(json as DocumentJson['lines'][number], at), net };
}

/** The Greek MARK and invoice URL (the first of each) as `greece`; the other references, with their place among all. */
function greekReferences(references: Partial<TermAttachment>[]) {
  const mark = references.findIndex((reference) => reference.description === GREEK_MARK);
  const url = references.findIndex((reference) => reference.description === GREEK_URL);
  const markId = references[mark]?.id;
  return {
    greece: markId === undefined ? undefined : stated({ mark: markId, invoice_url: references[url]?.uri }),
    supporting: references
      .map((attachment, index) => ({ attachment, index }))
      .filter(({ index }) => (markId === undefined || index !== mark) && index !== url),
  };
}

/** An embedded file (BG-24) as an attachment of the view (base64) and beside it (decoded); a reference without one is named. */
function attachmentOf(
  reader: TermReader,
  r: Reading,
  attachment: Partial<TermAttachment>,
  index: number,
): { json?: AttachmentJson; received: ReceivedAttachment; index: number }[] {
  const element = reader.elementAt(['attachments', index]);
  const content = attachment.content === undefined ? undefined : decodeBase64(attachment.content);
  if (!content) {
    const why =
      attachment.content === undefined
        ? 'a supporting document without an embedded file; the JSON view carries embedded files only'
        : 'the content is not base64';
    if (element) r.account(element, why);
    return [];
  }
  const received: ReceivedAttachment = stated({
    id: attachment.id ?? null,
    filename: attachment.filename ?? null,
    mime_code: attachment.mime_type ?? null,
    description: attachment.description,
    content,
  });
  if (!attachment.filename || !attachment.mime_type) {
    if (element)
      r.remark(
        element,
        'an embedded file without filename or mimeCode; the JSON view needs both (it is among the attachments still)',
      );
    return [{ received, index }];
  }
  return [
    {
      json: stated({
        filename: attachment.filename,
        mime_type: attachment.mime_type,
        content: attachment.content!.replace(/\s+/g, ''),
        description: attachment.description,
      }),
      received,
      index,
    },
  ];
}

function statedTotals(totals: Partial<TermDocument['totals']>, breakdown: Partial<TermVatBreakdown>[]): StatedTotals {
  return {
    line_extension: totals.line_extension ?? null,
    allowance_total: totals.allowance_total ?? null,
    charge_total: totals.charge_total ?? null,
    tax_exclusive: totals.tax_exclusive ?? null,
    tax: totals.tax ?? null,
    tax_inclusive: totals.tax_inclusive ?? null,
    prepaid: totals.prepaid ?? null,
    payable_rounding: totals.payable_rounding ?? null,
    payable: totals.payable ?? null,
    tax_breakdown: breakdown.map((group) => ({
      category: group.category ?? null,
      rate: group.rate ?? null,
      taxable: group.taxable ?? null,
      tax: group.tax ?? null,
    })),
  };
}

/**
 * Optional values the input schema refuses (an e-mail address it does not
 * take, a text longer than it allows) are left out of the JSON view and
 * named, so the view stays one a client could post. Anything else it refuses
 * (a VAT category it does not have, a required value missing) stays: the
 * view then says what the document says, and does not parse.
 */
function dropWhatTheSchemaRefuses(r: Reading, document: DocumentJson): void {
  for (;;) {
    const parsed = documentInputSchema.safeParse({ company_id: 'received', ...document });
    if (parsed.success) return;
    const dropped = parsed.error.issues.filter((issue) => {
      const source = r.takeSource(issue.path);
      if (source) r.remark(source, `${issue.message}; left out of the JSON view`);
      return source !== undefined;
    });
    if (dropped.length === 0) return;
    for (const issue of dropped) removeAt(document, issue.path);
  }
}

function removeAt(document: object, path: readonly PropertyKey[]): void {
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], document);
  if (parent && typeof parent === 'object') delete (parent as Record<PropertyKey, unknown>)[path.at(-1)!];
}
