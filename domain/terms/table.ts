/**
 * The EN 16931 business terms this service carries, one row each: where the
 * term sits in the document JSON (document.ts), in UBL 2.1 and in UN/CEFACT
 * CII D16B, how often it occurs, the rules that check it and an example.
 * The UBL and CII writers and readers are driven by it (domain/terms/), and
 * the field table of docs/documents.md is generated from it (`npm run docs:terms`).
 *
 * Paths are relative to their group's element and JSON object. A step may
 * name attributes the element must have (`ram:ID[@schemeID=VA]`: written,
 * and matched when read; `$currency` is the document currency); a last step
 * `@name` is an attribute. Where the UBL element of a credit note differs
 * (`cac:CreditNoteLine`), the row gives the invoice's.
 */

type TermKind = 'text' | 'code' | 'date' | 'amount' | 'decimal' | 'quantity' | 'binary' | 'participant' | 'legal-id';

export type GroupName =
  | 'document'
  | 'seller'
  | 'buyer'
  | 'delivery'
  | 'payment'
  | 'document-allowance'
  | 'document-charge'
  | 'vat-breakdown'
  | 'totals'
  | 'attachment'
  | 'line'
  | 'line-allowance'
  | 'line-charge';

export interface TermGroup {
  name: GroupName;
  /** BG-… where EN 16931 names the group. */
  id?: string;
  title: string;
  parent?: GroupName;
  /** The group's JSON object (or array, when it repeats) within its parent's. */
  json: string;
  repeats: boolean;
  ubl: string;
  cii: string;
  /** Values the syntax writes in every instance, which a reader tells instances apart by (a charge's indicator). */
  fixed?: { ubl?: Record<string, string>; cii?: Record<string, string> };
}

export interface Term {
  id: string;
  name: string;
  group: GroupName;
  json: string;
  kind: TermKind;
  required: boolean;
  ubl: string;
  cii: string;
  rules: string[];
  example: string;
  /** Set by the service, not sent: totals, the breakdown, positions. */
  computed?: true;
  /** Where a client posts it, when not at `json` (the paid amount is `payment.prepaid_amount`). */
  input?: string;
  /** Read, not posted: the JSON view turns it into what it has a field for (a price per base quantity into one per unit). */
  readOnly?: true;
}

const CII_AGREEMENT = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement';
const CII_SETTLEMENT = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
const CII_DATE = 'udt:DateTimeString[@format=102]';
/** UBL's VAT total in the document currency (a second one, in the tax currency, BT-111, has no breakdown). */
const UBL_VAT_TOTAL = 'cac:TaxTotal[cbc:TaxAmount@currencyID=$currency]';

/** Allowances, or charges, of the document or of a line: the same element, told apart by its charge indicator. */
function allowancesOrCharges(
  name: GroupName,
  id: string,
  title: string,
  isCharge: boolean,
  cii: string,
  parent?: GroupName,
): TermGroup {
  const indicator = String(isCharge);
  return {
    name,
    id,
    title,
    ...(parent && { parent }),
    json: isCharge ? 'charges' : 'allowances',
    repeats: true,
    ubl: 'cac:AllowanceCharge',
    cii,
    fixed: { ubl: { 'cbc:ChargeIndicator': indicator }, cii: { 'ram:ChargeIndicator/udt:Indicator': indicator } },
  };
}

/** @internal */
export const TERM_GROUPS: readonly TermGroup[] = [
  { name: 'document', title: 'Invoice', json: '', repeats: false, ubl: '', cii: '' },
  {
    name: 'seller',
    id: 'BG-4',
    title: 'Seller',
    json: 'from',
    repeats: false,
    ubl: 'cac:AccountingSupplierParty/cac:Party',
    cii: `${CII_AGREEMENT}/ram:SellerTradeParty`,
  },
  {
    name: 'buyer',
    id: 'BG-7',
    title: 'Buyer',
    json: 'to',
    repeats: false,
    ubl: 'cac:AccountingCustomerParty/cac:Party',
    cii: `${CII_AGREEMENT}/ram:BuyerTradeParty`,
  },
  {
    name: 'delivery',
    id: 'BG-13',
    title: 'Delivery information',
    json: 'delivery',
    repeats: false,
    ubl: 'cac:Delivery',
    cii: 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery',
  },
  {
    name: 'payment',
    id: 'BG-16',
    title: 'Payment instructions',
    json: 'payment',
    repeats: false,
    ubl: '',
    cii: CII_SETTLEMENT,
  },
  allowancesOrCharges(
    'document-allowance',
    'BG-20',
    'Document level allowances',
    false,
    `${CII_SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge`,
  ),
  allowancesOrCharges(
    'document-charge',
    'BG-21',
    'Document level charges',
    true,
    `${CII_SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge`,
  ),
  // UBL keeps the VAT total (BT-110) apart from the others, so the group's UBL paths start at the root.
  {
    name: 'totals',
    id: 'BG-22',
    title: 'Document totals',
    json: 'totals',
    repeats: false,
    ubl: '',
    cii: `${CII_SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`,
  },
  {
    name: 'vat-breakdown',
    id: 'BG-23',
    title: 'VAT breakdown',
    json: 'vat_breakdown',
    repeats: true,
    ubl: `${UBL_VAT_TOTAL}/cac:TaxSubtotal`,
    cii: `${CII_SETTLEMENT}/ram:ApplicableTradeTax`,
  },
  {
    name: 'attachment',
    id: 'BG-24',
    title: 'Additional supporting documents',
    json: 'attachments',
    repeats: true,
    ubl: 'cac:AdditionalDocumentReference',
    cii: `${CII_AGREEMENT}/ram:AdditionalReferencedDocument`,
    // 916: a supporting document, as opposed to an invoiced object (130) or a tender (50).
    fixed: { cii: { 'ram:TypeCode': '916' } },
  },
  {
    name: 'line',
    id: 'BG-25',
    title: 'Invoice line',
    json: 'lines',
    repeats: true,
    ubl: 'cac:InvoiceLine',
    cii: 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem',
  },
  allowancesOrCharges(
    'line-allowance',
    'BG-27',
    'Invoice line allowances',
    false,
    'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge',
    'line',
  ),
  allowancesOrCharges(
    'line-charge',
    'BG-28',
    'Invoice line charges',
    true,
    'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge',
    'line',
  ),
];

type Row = Omit<Term, 'group' | 'required' | 'rules'> & { required?: boolean; rules?: string[] };
const inGroup = (group: GroupName, rows: Row[]): Term[] =>
  rows.map((row) => ({ ...row, group, required: row.required ?? false, rules: row.rules ?? [] }));

const DOCUMENT = inGroup('document', [
  {
    id: 'BT-24',
    name: 'Specification identifier',
    json: 'specification',
    input: 'profile',
    kind: 'code',
    required: true,
    ubl: 'cbc:CustomizationID',
    cii: 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID',
    rules: ['BR-01', 'BR-DE-21'],
    example: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  },
  {
    id: 'BT-23',
    name: 'Business process type',
    json: 'process',
    kind: 'code',
    ubl: 'cbc:ProfileID',
    cii: 'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID',
    rules: ['PEPPOL-EN16931-R001'],
    example: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    computed: true,
  },
  {
    id: 'BT-1',
    name: 'Invoice number',
    json: 'number',
    kind: 'text',
    required: true,
    ubl: 'cbc:ID',
    cii: 'rsm:ExchangedDocument/ram:ID',
    rules: ['BR-02'],
    example: 'INV-2026-001',
  },
  {
    id: 'BT-2',
    name: 'Invoice issue date',
    json: 'issue_date',
    kind: 'date',
    required: true,
    ubl: 'cbc:IssueDate',
    cii: `rsm:ExchangedDocument/ram:IssueDateTime/${CII_DATE}`,
    rules: ['BR-03'],
    example: '2026-12-01',
  },
  {
    id: 'BT-3',
    name: 'Invoice type code',
    json: 'type_code',
    input: 'type',
    kind: 'code',
    required: true,
    ubl: 'cbc:InvoiceTypeCode',
    cii: 'rsm:ExchangedDocument/ram:TypeCode',
    rules: ['BR-04', 'BR-CL-01'],
    example: '380',
  },
  {
    id: 'BT-22',
    name: 'Invoice note',
    json: 'note',
    kind: 'text',
    ubl: 'cbc:Note',
    cii: 'rsm:ExchangedDocument/ram:IncludedNote/ram:Content',
    example: 'Thank you for your order',
  },
  {
    id: 'BT-9',
    name: 'Payment due date',
    json: 'due_date',
    kind: 'date',
    ubl: 'cbc:DueDate',
    cii: `${CII_SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/${CII_DATE}`,
    rules: ['BR-CO-25'],
    example: '2026-12-31',
  },
  {
    id: 'BT-5',
    name: 'Invoice currency code',
    json: 'currency',
    kind: 'code',
    required: true,
    ubl: 'cbc:DocumentCurrencyCode',
    cii: `${CII_SETTLEMENT}/ram:InvoiceCurrencyCode`,
    rules: ['BR-05', 'BR-CL-04'],
    example: 'EUR',
  },
  {
    id: 'BT-10',
    name: 'Buyer reference',
    json: 'buyer_reference',
    kind: 'text',
    ubl: 'cbc:BuyerReference',
    cii: `${CII_AGREEMENT}/ram:BuyerReference`,
    rules: ['PEPPOL-EN16931-R003', 'BR-DE-15'],
    example: 'PO-4711',
  },
  {
    id: 'BT-73',
    name: 'Invoicing period start date',
    json: 'period.start',
    kind: 'date',
    ubl: 'cac:InvoicePeriod/cbc:StartDate',
    cii: `${CII_SETTLEMENT}/ram:BillingSpecifiedPeriod/ram:StartDateTime/${CII_DATE}`,
    rules: ['BR-CO-19'],
    example: '2026-11-01',
  },
  {
    id: 'BT-74',
    name: 'Invoicing period end date',
    json: 'period.end',
    kind: 'date',
    ubl: 'cac:InvoicePeriod/cbc:EndDate',
    cii: `${CII_SETTLEMENT}/ram:BillingSpecifiedPeriod/ram:EndDateTime/${CII_DATE}`,
    rules: ['BR-29'],
    example: '2026-11-30',
  },
  {
    id: 'BT-13',
    name: 'Purchase order reference',
    json: 'order_reference',
    kind: 'text',
    ubl: 'cac:OrderReference/cbc:ID',
    cii: `${CII_AGREEMENT}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID`,
    example: 'PO-2026-118',
  },
  {
    id: 'BT-25',
    name: 'Preceding invoice reference',
    json: 'invoice_reference.number',
    kind: 'text',
    ubl: 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID',
    cii: `${CII_SETTLEMENT}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`,
    rules: ['BR-55'],
    example: 'INV-2026-000',
  },
  {
    id: 'BT-26',
    name: 'Preceding invoice issue date',
    json: 'invoice_reference.issue_date',
    kind: 'date',
    ubl: 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate',
    cii: `${CII_SETTLEMENT}/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString[@format=102]`,
    example: '2026-11-15',
  },
]);

/** Seller and buyer: the same terms under two numbers (BT-27 is the seller's name, BT-44 the buyer's). */
function partyTerms(
  group: 'seller' | 'buyer',
  ids: [string, string, string, string, string, string, string, string, string, string, string, string, string],
  example: string,
): Term[] {
  const [name, tradingName, identifier, endpoint, vat, legal, contact, phone, email, street, city, postcode, country] =
    ids;
  return inGroup(group, [
    ...partyIdentityTerms(group, [name, tradingName, identifier, endpoint, vat, legal], example),
    ...partyContactTerms(group, [contact, phone, email]),
    ...partyAddressTerms(group, [street, city, postcode, country]),
  ]);
}

/** A party's names and identifiers: its name, trading name, identifier, electronic address, VAT and legal ids. */
function partyIdentityTerms(
  group: 'seller' | 'buyer',
  [name, tradingName, identifier, endpoint, vat, legal]: [string, string, string, string, string, string],
  example: string,
): Row[] {
  // A UBL party identification in scheme SEPA is the creditor id (BT-90, in the payment group), not the party's identifier.
  const identification = 'cac:PartyIdentification[cbc:ID@schemeID!=SEPA]/cbc:ID';
  return [
    {
      id: name,
      name: `${group === 'seller' ? 'Seller' : 'Buyer'} name`,
      json: 'name',
      kind: 'text',
      required: true,
      ubl: 'cac:PartyLegalEntity/cbc:RegistrationName',
      cii: 'ram:Name',
      rules: [group === 'seller' ? 'BR-06' : 'BR-07'],
      example,
    },
    // Not in the JSON: the service states it (the legal name again) only where rules want it, for Greek sellers (GR-R-002, GR-R-005).
    {
      id: tradingName,
      name: 'Trading name',
      json: 'trading_name',
      kind: 'text',
      ubl: 'cac:PartyName/cbc:Name',
      cii: 'ram:SpecifiedLegalOrganization/ram:TradingBusinessName',
      rules: [group === 'seller' ? 'GR-R-002' : 'GR-R-005'],
      example,
      computed: true,
    },
    {
      id: identifier,
      name: `${group === 'seller' ? 'Seller' : 'Buyer'} identifier`,
      json: 'identifier',
      kind: 'text',
      ubl: identification,
      cii: 'ram:ID',
      rules: group === 'seller' ? ['BR-CO-26'] : [],
      example: '7300010000001',
    },
    {
      id: `${identifier}-1`,
      name: `${group === 'seller' ? 'Seller' : 'Buyer'} identifier scheme identifier`,
      json: 'identifier_scheme',
      kind: 'code',
      ubl: `${identification}/@schemeID`,
      cii: 'ram:ID/@schemeID',
      example: '0088',
    },
    {
      id: endpoint,
      name: 'Electronic address',
      json: 'peppol_id',
      kind: 'participant',
      ubl: 'cbc:EndpointID',
      cii: 'ram:URIUniversalCommunication/ram:URIID',
      rules: [group === 'seller' ? 'PEPPOL-EN16931-R020' : 'PEPPOL-EN16931-R010', 'BR-62', 'BR-63'],
      example: '0208:0123456749',
    },
    {
      id: vat,
      name: 'VAT identifier',
      json: 'tax_id',
      kind: 'text',
      ubl: 'cac:PartyTaxScheme[cac:TaxScheme/cbc:ID=$taxScheme]/cbc:CompanyID',
      cii: 'ram:SpecifiedTaxRegistration[ram:ID@schemeID=VA]/ram:ID[@schemeID=VA]',
      rules: ['BR-CO-09'],
      example: 'BE0123456749',
    },
    {
      id: legal,
      name: 'Legal registration identifier',
      json: 'company_registration_id',
      kind: 'legal-id',
      ubl: 'cac:PartyLegalEntity/cbc:CompanyID',
      cii: 'ram:SpecifiedLegalOrganization/ram:ID',
      example: '0123456749',
    },
  ];
}

/** A party's contact: a person or department, a telephone number and an email address. */
function partyContactTerms(group: 'seller' | 'buyer', [contact, phone, email]: [string, string, string]): Row[] {
  return [
    {
      id: contact,
      name: 'Contact point',
      json: 'contact_name',
      kind: 'text',
      ubl: 'cac:Contact/cbc:Name',
      cii: 'ram:DefinedTradeContact/ram:PersonName',
      rules: group === 'seller' ? ['DE-R-005'] : [],
      example: 'Accounts receivable',
    },
    {
      id: phone,
      name: 'Contact telephone number',
      json: 'phone',
      kind: 'text',
      ubl: 'cac:Contact/cbc:Telephone',
      cii: 'ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber',
      rules: group === 'seller' ? ['DE-R-006'] : [],
      example: '+32 2 555 01 01',
    },
    {
      id: email,
      name: 'Contact email address',
      json: 'email',
      kind: 'text',
      ubl: 'cac:Contact/cbc:ElectronicMail',
      cii: 'ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID',
      rules: group === 'seller' ? ['DE-R-007'] : [],
      example: 'billing@example.com',
    },
  ];
}

/** A party's postal address. */
function partyAddressTerms(
  group: 'seller' | 'buyer',
  [street, city, postcode, country]: [string, string, string, string],
): Row[] {
  return [
    {
      id: street,
      name: 'Address line 1',
      json: 'address.street',
      kind: 'text',
      ubl: 'cac:PostalAddress/cbc:StreetName',
      cii: 'ram:PostalTradeAddress/ram:LineOne',
      example: 'Rue de la Loi 16',
    },
    {
      id: city,
      name: 'City',
      json: 'address.city',
      kind: 'text',
      ubl: 'cac:PostalAddress/cbc:CityName',
      cii: 'ram:PostalTradeAddress/ram:CityName',
      example: 'Brussels',
    },
    {
      id: postcode,
      name: 'Post code',
      json: 'address.postal_code',
      kind: 'text',
      ubl: 'cac:PostalAddress/cbc:PostalZone',
      cii: 'ram:PostalTradeAddress/ram:PostcodeCode',
      example: '1000',
    },
    {
      id: country,
      name: 'Country code',
      json: 'address.country',
      kind: 'code',
      required: group === 'seller',
      ubl: 'cac:PostalAddress/cac:Country/cbc:IdentificationCode',
      cii: 'ram:PostalTradeAddress/ram:CountryID',
      rules: [group === 'seller' ? 'BR-09' : 'BR-11', 'BR-CL-14'],
      example: 'BE',
    },
  ];
}

const DELIVERY = inGroup('delivery', [
  {
    id: 'BT-72',
    name: 'Actual delivery date',
    json: 'date',
    kind: 'date',
    ubl: 'cbc:ActualDeliveryDate',
    cii: `ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/${CII_DATE}`,
    example: '2026-11-28',
  },
  {
    id: 'BT-75',
    name: 'Deliver to address line 1',
    json: 'street',
    kind: 'text',
    ubl: 'cac:DeliveryLocation/cac:Address/cbc:StreetName',
    cii: 'ram:ShipToTradeParty/ram:PostalTradeAddress/ram:LineOne',
    example: 'Kade 12',
  },
  {
    id: 'BT-77',
    name: 'Deliver to city',
    json: 'city',
    kind: 'text',
    ubl: 'cac:DeliveryLocation/cac:Address/cbc:CityName',
    cii: 'ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CityName',
    example: 'Antwerp',
  },
  {
    id: 'BT-78',
    name: 'Deliver to post code',
    json: 'postal_code',
    kind: 'text',
    ubl: 'cac:DeliveryLocation/cac:Address/cbc:PostalZone',
    cii: 'ram:ShipToTradeParty/ram:PostalTradeAddress/ram:PostcodeCode',
    example: '2000',
  },
  {
    id: 'BT-80',
    name: 'Deliver to country code',
    json: 'country',
    kind: 'code',
    ubl: 'cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode',
    cii: 'ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CountryID',
    rules: ['BR-57'],
    example: 'BE',
  },
]);

const PAYMENT = inGroup('payment', [
  {
    id: 'BT-81',
    name: 'Payment means type code',
    json: 'means_code',
    kind: 'code',
    ubl: 'cac:PaymentMeans/cbc:PaymentMeansCode',
    cii: 'ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode',
    rules: ['BR-49', 'BR-CL-16'],
    example: '30',
  },
  {
    id: 'BT-83',
    name: 'Remittance information',
    json: 'reference',
    kind: 'text',
    ubl: 'cac:PaymentMeans/cbc:PaymentID',
    cii: 'ram:PaymentReference',
    example: '+++090/9337/55493+++',
  },
  {
    id: 'BT-84',
    name: 'Payment account identifier',
    json: 'iban',
    kind: 'text',
    ubl: 'cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID',
    cii: 'ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID',
    rules: ['BR-50'],
    example: 'BE68539007547034',
  },
  {
    id: 'BT-86',
    name: 'Payment service provider identifier',
    json: 'bic',
    kind: 'text',
    ubl: 'cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID',
    cii: 'ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID',
    example: 'GKCCBEBB',
  },
  {
    id: 'BT-20',
    name: 'Payment terms',
    json: 'terms',
    kind: 'text',
    ubl: 'cac:PaymentTerms/cbc:Note',
    cii: 'ram:SpecifiedTradePaymentTerms/ram:Description',
    example: '30 days net',
  },
  {
    id: 'BT-89',
    name: 'Mandate reference identifier',
    json: 'mandate_reference',
    kind: 'text',
    ubl: 'cac:PaymentMeans/cac:PaymentMandate/cbc:ID',
    cii: 'ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID',
    rules: ['BR-61'],
    example: 'MANDATE-17',
  },
  {
    id: 'BT-90',
    name: 'Bank assigned creditor identifier',
    json: 'creditor_id',
    kind: 'text',
    ubl: 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification[cbc:ID@schemeID=SEPA]/cbc:ID[@schemeID=SEPA]',
    cii: 'ram:CreditorReferenceID',
    example: 'BE69ZZZ050D000000008',
  },
  {
    id: 'BT-91',
    name: 'Debited account identifier',
    json: 'debited_account',
    kind: 'text',
    ubl: 'cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID',
    cii: 'ram:SpecifiedTradeSettlementPaymentMeans/ram:PayerPartyDebtorFinancialAccount/ram:IBANID',
    example: 'BE71096123456769',
  },
]);

/** Document level allowances and charges: the same terms under two numbers. */
function documentAllowanceChargeTerms(
  group: 'document-allowance' | 'document-charge',
  ids: [string, string, string, string, string],
  rules: string[],
): Term[] {
  const [amount, category, rate, reason, code] = ids;
  return inGroup(group, [
    {
      id: amount,
      name: 'Amount',
      json: 'amount',
      kind: 'amount',
      required: true,
      ubl: 'cbc:Amount[@currencyID=$currency]',
      cii: 'ram:ActualAmount',
      rules: [rules[0]!],
      example: '10.00',
    },
    {
      id: category,
      name: 'VAT category code',
      json: 'tax_category',
      kind: 'code',
      required: true,
      ubl: 'cac:TaxCategory/cbc:ID',
      cii: 'ram:CategoryTradeTax/ram:CategoryCode',
      rules: [rules[1]!],
      example: 'S',
    },
    {
      id: rate,
      name: 'VAT rate',
      json: 'tax_rate',
      kind: 'decimal',
      ubl: 'cac:TaxCategory/cbc:Percent',
      cii: 'ram:CategoryTradeTax/ram:RateApplicablePercent',
      example: '21',
    },
    {
      id: reason,
      name: 'Reason',
      json: 'reason',
      kind: 'text',
      ubl: 'cbc:AllowanceChargeReason',
      cii: 'ram:Reason',
      rules: [rules[2]!],
      example: 'Volume discount',
    },
    {
      id: code,
      name: 'Reason code',
      json: 'reason_code',
      kind: 'code',
      ubl: 'cbc:AllowanceChargeReasonCode',
      cii: 'ram:ReasonCode',
      example: '95',
    },
  ]);
}

const TOTALS = inGroup('totals', [
  {
    id: 'BT-106',
    name: 'Sum of invoice line net amount',
    json: 'line_extension',
    kind: 'amount',
    required: true,
    ubl: 'cac:LegalMonetaryTotal/cbc:LineExtensionAmount[@currencyID=$currency]',
    cii: 'ram:LineTotalAmount',
    rules: ['BR-12', 'BR-CO-10'],
    example: '100.00',
    computed: true,
  },
  {
    id: 'BT-108',
    name: 'Sum of charges on document level',
    json: 'charge_total',
    kind: 'amount',
    ubl: 'cac:LegalMonetaryTotal/cbc:ChargeTotalAmount[@currencyID=$currency]',
    cii: 'ram:ChargeTotalAmount',
    rules: ['BR-CO-12'],
    example: '5.00',
    computed: true,
  },
  {
    id: 'BT-107',
    name: 'Sum of allowances on document level',
    json: 'allowance_total',
    kind: 'amount',
    ubl: 'cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount[@currencyID=$currency]',
    cii: 'ram:AllowanceTotalAmount',
    rules: ['BR-CO-11'],
    example: '10.00',
    computed: true,
  },
  {
    id: 'BT-109',
    name: 'Invoice total amount without VAT',
    json: 'tax_exclusive',
    kind: 'amount',
    required: true,
    ubl: 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount[@currencyID=$currency]',
    cii: 'ram:TaxBasisTotalAmount',
    rules: ['BR-13', 'BR-CO-13'],
    example: '95.00',
    computed: true,
  },
  {
    id: 'BT-110',
    name: 'Invoice total VAT amount',
    json: 'tax',
    kind: 'amount',
    ubl: `${UBL_VAT_TOTAL}/cbc:TaxAmount[@currencyID=$currency]`,
    cii: 'ram:TaxTotalAmount[@currencyID=$currency]',
    rules: ['BR-CO-14'],
    example: '19.95',
    computed: true,
  },
  {
    id: 'BT-114',
    name: 'Rounding amount',
    json: 'payable_rounding',
    input: 'payment.rounding_amount',
    kind: 'amount',
    ubl: 'cac:LegalMonetaryTotal/cbc:PayableRoundingAmount[@currencyID=$currency]',
    cii: 'ram:RoundingAmount',
    rules: ['EINVOICE-BT114'],
    example: '0.05',
  },
  {
    id: 'BT-112',
    name: 'Invoice total amount with VAT',
    json: 'tax_inclusive',
    kind: 'amount',
    required: true,
    ubl: 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount[@currencyID=$currency]',
    cii: 'ram:GrandTotalAmount',
    rules: ['BR-14', 'BR-CO-15'],
    example: '114.95',
    computed: true,
  },
  {
    id: 'BT-113',
    name: 'Paid amount',
    json: 'prepaid',
    input: 'payment.prepaid_amount',
    kind: 'amount',
    ubl: 'cac:LegalMonetaryTotal/cbc:PrepaidAmount[@currencyID=$currency]',
    cii: 'ram:TotalPrepaidAmount',
    example: '14.95',
  },
  {
    id: 'BT-115',
    name: 'Amount due for payment',
    json: 'payable',
    kind: 'amount',
    required: true,
    ubl: 'cac:LegalMonetaryTotal/cbc:PayableAmount[@currencyID=$currency]',
    cii: 'ram:DuePayableAmount',
    rules: ['BR-15', 'BR-CO-16'],
    example: '100.00',
    computed: true,
  },
]);

const VAT_BREAKDOWN = inGroup('vat-breakdown', [
  {
    id: 'BT-116',
    name: 'VAT category taxable amount',
    json: 'taxable',
    kind: 'amount',
    required: true,
    ubl: 'cbc:TaxableAmount[@currencyID=$currency]',
    cii: 'ram:BasisAmount',
    rules: ['BR-45'],
    example: '95.00',
    computed: true,
  },
  {
    id: 'BT-117',
    name: 'VAT category tax amount',
    json: 'tax',
    kind: 'amount',
    required: true,
    ubl: 'cbc:TaxAmount[@currencyID=$currency]',
    cii: 'ram:CalculatedAmount',
    rules: ['BR-46', 'BR-CO-17'],
    example: '19.95',
    computed: true,
  },
  {
    id: 'BT-118',
    name: 'VAT category code',
    json: 'category',
    kind: 'code',
    required: true,
    ubl: 'cac:TaxCategory/cbc:ID',
    cii: 'ram:CategoryCode',
    rules: ['BR-47'],
    example: 'S',
    computed: true,
  },
  {
    id: 'BT-119',
    name: 'VAT category rate',
    json: 'rate',
    kind: 'decimal',
    ubl: 'cac:TaxCategory/cbc:Percent',
    cii: 'ram:RateApplicablePercent',
    rules: ['BR-48'],
    example: '21',
    computed: true,
  },
  {
    id: 'BT-120',
    name: 'VAT exemption reason text',
    json: 'exemption_reason',
    kind: 'text',
    ubl: 'cac:TaxCategory/cbc:TaxExemptionReason',
    cii: 'ram:ExemptionReason',
    rules: ['BR-E-10', 'BR-AE-10'],
    example: 'Reverse charge',
    computed: true,
  },
  {
    id: 'BT-121',
    name: 'VAT exemption reason code',
    json: 'exemption_reason_code',
    kind: 'code',
    ubl: 'cac:TaxCategory/cbc:TaxExemptionReasonCode',
    cii: 'ram:ExemptionReasonCode',
    example: 'VATEX-EU-AE',
    computed: true,
  },
]);

const ATTACHMENT = inGroup('attachment', [
  {
    id: 'BT-122',
    name: 'Supporting document reference',
    json: 'id',
    kind: 'text',
    required: true,
    ubl: 'cbc:ID',
    cii: 'ram:IssuerAssignedID',
    rules: ['BR-52'],
    example: 'att_7fQ2LmQ4rT7vW0xY3zA6bC8d',
    computed: true,
  },
  {
    id: 'BT-123',
    name: 'Supporting document description',
    json: 'description',
    kind: 'text',
    ubl: 'cbc:DocumentDescription',
    cii: 'ram:Name',
    example: 'Timesheet',
  },
  // Posted only as the Greek invoice's URL (GR-S-008); a supporting document a client posts is embedded.
  {
    id: 'BT-124',
    name: 'External document location',
    json: 'uri',
    input: 'greece.invoice_url',
    kind: 'text',
    ubl: 'cac:Attachment/cac:ExternalReference/cbc:URI',
    cii: 'ram:URIID',
    rules: ['GR-S-008'],
    example: 'https://example.com/invoices/INV-2026-001',
  },
  {
    id: 'BT-125',
    name: 'Attached document',
    json: 'content',
    kind: 'binary',
    ubl: 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject',
    cii: 'ram:AttachmentBinaryObject',
    example: 'JVBERi0xLjcK…',
  },
  {
    id: 'BT-125-1',
    name: 'Attached document mime code',
    json: 'mime_type',
    kind: 'code',
    ubl: 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@mimeCode',
    cii: 'ram:AttachmentBinaryObject/@mimeCode',
    rules: ['BR-CL-24'],
    example: 'application/pdf',
  },
  {
    id: 'BT-125-2',
    name: 'Attached document filename',
    json: 'filename',
    kind: 'text',
    ubl: 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename',
    cii: 'ram:AttachmentBinaryObject/@filename',
    example: 'timesheet.pdf',
  },
]);

const LINE = inGroup('line', [
  {
    id: 'BT-126',
    name: 'Invoice line identifier',
    json: 'id',
    kind: 'text',
    required: true,
    ubl: 'cbc:ID',
    cii: 'ram:AssociatedDocumentLineDocument/ram:LineID',
    rules: ['BR-21'],
    example: '1',
    computed: true,
  },
  {
    id: 'BT-127',
    name: 'Invoice line note',
    json: 'note',
    kind: 'text',
    ubl: 'cbc:Note',
    cii: 'ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content',
    example: 'Delivered in two parts',
  },
  {
    id: 'BT-129',
    name: 'Invoiced quantity',
    json: 'quantity',
    kind: 'quantity',
    required: true,
    ubl: 'cbc:InvoicedQuantity',
    cii: 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity',
    rules: ['BR-22'],
    example: '2',
  },
  {
    id: 'BT-130',
    name: 'Invoiced quantity unit of measure code',
    json: 'unit',
    kind: 'code',
    required: true,
    ubl: 'cbc:InvoicedQuantity/@unitCode',
    cii: 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode',
    rules: ['BR-23', 'BR-CL-23'],
    example: 'C62',
  },
  {
    id: 'BT-131',
    name: 'Invoice line net amount',
    json: 'net',
    kind: 'amount',
    required: true,
    ubl: 'cbc:LineExtensionAmount[@currencyID=$currency]',
    cii: 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
    rules: ['BR-24'],
    example: '50.00',
    computed: true,
  },
  {
    id: 'BT-153',
    name: 'Item name',
    json: 'description',
    kind: 'text',
    required: true,
    ubl: 'cac:Item/cbc:Name',
    cii: 'ram:SpecifiedTradeProduct/ram:Name',
    rules: ['BR-25'],
    example: 'Consulting, November',
  },
  {
    id: 'BT-155',
    name: "Item Seller's identifier",
    json: 'item_id',
    kind: 'text',
    ubl: 'cac:Item/cac:SellersItemIdentification/cbc:ID',
    cii: 'ram:SpecifiedTradeProduct/ram:SellerAssignedID',
    example: 'SKU-118',
  },
  {
    id: 'BT-151',
    name: 'Invoiced item VAT category code',
    json: 'tax_category',
    kind: 'code',
    required: true,
    ubl: 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID',
    cii: 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode',
    rules: ['BR-CO-04'],
    example: 'S',
  },
  {
    id: 'BT-152',
    name: 'Invoiced item VAT rate',
    json: 'tax_rate',
    kind: 'decimal',
    ubl: 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent',
    cii: 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent',
    rules: ['BR-S-05'],
    example: '21',
  },
  {
    id: 'BT-149',
    name: 'Item price base quantity',
    json: 'price_base_quantity',
    readOnly: true,
    kind: 'quantity',
    ubl: 'cac:Price/cbc:BaseQuantity',
    cii: 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity',
    example: '12',
  },
  {
    id: 'BT-150',
    name: 'Item price base quantity unit of measure code',
    json: 'price_base_unit',
    readOnly: true,
    kind: 'code',
    ubl: 'cac:Price/cbc:BaseQuantity/@unitCode',
    cii: 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode',
    example: 'MON',
  },
  {
    id: 'BT-146',
    name: 'Item net price',
    json: 'unit_price',
    kind: 'decimal',
    required: true,
    ubl: 'cac:Price/cbc:PriceAmount[@currencyID=$currency]',
    cii: 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount',
    rules: ['BR-26', 'BR-27'],
    example: '25.00',
  },
]);

/** Line allowances and charges: the same terms under two numbers. */
function lineAllowanceChargeTerms(
  group: 'line-allowance' | 'line-charge',
  ids: [string, string, string],
  rules: string[],
): Term[] {
  const [amount, reason, code] = ids;
  return inGroup(group, [
    {
      id: amount,
      name: 'Amount',
      json: 'amount',
      kind: 'amount',
      required: true,
      ubl: 'cbc:Amount[@currencyID=$currency]',
      cii: 'ram:ActualAmount',
      rules: [rules[0]!],
      example: '5.00',
    },
    {
      id: reason,
      name: 'Reason',
      json: 'reason',
      kind: 'text',
      ubl: 'cbc:AllowanceChargeReason',
      cii: 'ram:Reason',
      rules: [rules[1]!],
      example: 'Loyalty discount',
    },
    {
      id: code,
      name: 'Reason code',
      json: 'reason_code',
      kind: 'code',
      ubl: 'cbc:AllowanceChargeReasonCode',
      cii: 'ram:ReasonCode',
      example: '95',
    },
  ]);
}

/** @internal */
export const TERMS: readonly Term[] = [
  ...DOCUMENT,
  ...partyTerms(
    'seller',
    [
      'BT-27',
      'BT-28',
      'BT-29',
      'BT-34',
      'BT-31',
      'BT-30',
      'BT-41',
      'BT-42',
      'BT-43',
      'BT-35',
      'BT-37',
      'BT-38',
      'BT-40',
    ],
    'Example Seller NV',
  ),
  ...partyTerms(
    'buyer',
    [
      'BT-44',
      'BT-45',
      'BT-46',
      'BT-49',
      'BT-48',
      'BT-47',
      'BT-56',
      'BT-57',
      'BT-58',
      'BT-50',
      'BT-52',
      'BT-53',
      'BT-55',
    ],
    'Example Buyer BV',
  ),
  ...DELIVERY,
  ...PAYMENT,
  ...documentAllowanceChargeTerms(
    'document-allowance',
    ['BT-92', 'BT-95', 'BT-96', 'BT-97', 'BT-98'],
    ['BR-31', 'BR-32', 'BR-33'],
  ),
  ...documentAllowanceChargeTerms(
    'document-charge',
    ['BT-99', 'BT-102', 'BT-103', 'BT-104', 'BT-105'],
    ['BR-36', 'BR-37', 'BR-38'],
  ),
  ...TOTALS,
  ...VAT_BREAKDOWN,
  ...ATTACHMENT,
  ...LINE,
  ...lineAllowanceChargeTerms('line-allowance', ['BT-136', 'BT-139', 'BT-140'], ['BR-41', 'BR-42']),
  ...lineAllowanceChargeTerms('line-charge', ['BT-141', 'BT-144', 'BT-145'], ['BR-43', 'BR-44']),
];

export const groupNamed = (name: GroupName): TermGroup => TERM_GROUPS.find((group) => group.name === name)!;
export const termsOf = (group: GroupName): Term[] => TERMS.filter((term) => term.group === group);
export const childGroups = (parent: GroupName | undefined): TermGroup[] =>
  TERM_GROUPS.filter(
    (group) => group.name !== 'document' && group.parent === (parent === 'document' ? undefined : parent),
  );

/** The group and its ancestors, outermost first. */
function lineage(group: TermGroup): TermGroup[] {
  return group.parent ? [...lineage(groupNamed(group.parent)), group] : [group];
}

/** A term by its id within a group (BT-27 of the seller). */
export const termNamed = (group: GroupName, id: string): Term =>
  TERMS.find((term) => term.group === group && term.id === id)!;

/** A predicate as XPath writes it (`[@schemeID='VA']`); one on the document's currency or tax scheme is left out, as it names no fixed value. */
const asXPath = (path: string) =>
  path.replace(
    /\[(@?)([a-z]+:[A-Za-z/:]+|[A-Za-z]+)(?:@([A-Za-z]+))?(!?=)([^\]]+)\]/g,
    (_, at: string, name: string, attribute: string | undefined, test: string, value: string) => {
      if (value.startsWith('$')) return '';
      if (at) return `[@${name}='${value}']`;
      const selected = attribute ? `${name}/@${attribute}` : name;
      return test === '=' ? `[${selected}='${value}']` : `[not(${selected}='${value}')]`;
    },
  );

/** A term's path from the root in one syntax, as XPath (an invoice's, for UBL); a repeating group's steps stand for each of its elements. */
export function termPathFromRoot(term: Term, syntax: 'ubl' | 'cii'): string {
  return asXPath(
    [...lineage(groupNamed(term.group)).map((group) => group[syntax]), term[syntax]]
      .filter((path) => path !== '')
      .join('/'),
  );
}

/**
 * What an input field carries, for its description: the EN 16931 terms the table posts at any of `paths`
 * (`BT-1 Invoice number`; a field several groups share, `BT-30/BT-47 Legal registration identifier`), then `note`.
 */
export function termsDescription(paths: readonly string[], note?: string): string {
  const terms = TERMS.filter((term) => !term.computed && !term.readOnly && paths.includes(termJsonPath(term)));
  if (terms.length === 0) throw new Error(`no term of the table is posted at ${paths.join(', ')}`);
  const names = [...new Set(terms.map((term) => term.name))];
  const label =
    names.length === 1
      ? `${terms.map((term) => term.id).join('/')} ${names[0]}`
      : terms.map((term) => `${term.id} ${term.name}`).join(' / ');
  return note ? `${label}: ${note}` : label;
}

/** A term's field in the JSON a client posts (`from.name`; `lines[].unit_price` for a repeating group). */
export function termJsonPath(term: Term): string {
  if (term.input) return term.input;
  const groups = lineage(groupNamed(term.group))
    .filter((group) => group.json !== '')
    .map((group) => (group.repeats ? `${group.json}[]` : group.json));
  return [...groups, term.json].join('.');
}
