import type { XmlSyntax } from '../terms/syntax';

/**
 * UN/CEFACT Cross Industry Invoice D16B as EN 16931-1 binds it (CEN/TS
 * 16931-3-3): namespaces, dates (`udt:DateTimeString` format 102,
 * CCYYMMDD) and the XSD sequences of the elements the term table uses.
 */

export const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

const TRADE_PARTY = [
  'ram:ID',
  'ram:GlobalID',
  'ram:Name',
  'ram:SpecifiedLegalOrganization',
  'ram:DefinedTradeContact',
  'ram:PostalTradeAddress',
  'ram:URIUniversalCommunication',
  'ram:SpecifiedTaxRegistration',
];
const TRADE_TAX = [
  'ram:CalculatedAmount',
  'ram:TypeCode',
  'ram:ExemptionReason',
  'ram:BasisAmount',
  'ram:CategoryCode',
  'ram:ExemptionReasonCode',
  'ram:RateApplicablePercent',
];
const PERIOD = ['ram:StartDateTime', 'ram:EndDateTime'];

const SEQUENCES: Record<string, readonly string[]> = {
  'rsm:CrossIndustryInvoice': [
    'rsm:ExchangedDocumentContext',
    'rsm:ExchangedDocument',
    'rsm:SupplyChainTradeTransaction',
  ],
  'rsm:ExchangedDocumentContext': [
    'ram:BusinessProcessSpecifiedDocumentContextParameter',
    'ram:GuidelineSpecifiedDocumentContextParameter',
  ],
  'rsm:ExchangedDocument': ['ram:ID', 'ram:TypeCode', 'ram:IssueDateTime', 'ram:IncludedNote'],
  'rsm:SupplyChainTradeTransaction': [
    'ram:IncludedSupplyChainTradeLineItem',
    'ram:ApplicableHeaderTradeAgreement',
    'ram:ApplicableHeaderTradeDelivery',
    'ram:ApplicableHeaderTradeSettlement',
  ],
  'ram:IncludedSupplyChainTradeLineItem': [
    'ram:AssociatedDocumentLineDocument',
    'ram:SpecifiedTradeProduct',
    'ram:SpecifiedLineTradeAgreement',
    'ram:SpecifiedLineTradeDelivery',
    'ram:SpecifiedLineTradeSettlement',
  ],
  'ram:AssociatedDocumentLineDocument': ['ram:LineID', 'ram:IncludedNote'],
  'ram:SpecifiedTradeProduct': ['ram:SellerAssignedID', 'ram:Name'],
  'ram:NetPriceProductTradePrice': ['ram:ChargeAmount', 'ram:BasisQuantity'],
  'ram:SpecifiedLineTradeSettlement': [
    'ram:ApplicableTradeTax',
    'ram:BillingSpecifiedPeriod',
    'ram:SpecifiedTradeAllowanceCharge',
    'ram:SpecifiedTradeSettlementLineMonetarySummation',
  ],
  'ram:ApplicableTradeTax': TRADE_TAX,
  'ram:CategoryTradeTax': TRADE_TAX,
  'ram:SpecifiedTradeAllowanceCharge': [
    'ram:ChargeIndicator',
    'ram:ActualAmount',
    'ram:ReasonCode',
    'ram:Reason',
    'ram:CategoryTradeTax',
  ],
  'ram:ApplicableHeaderTradeAgreement': [
    'ram:BuyerReference',
    'ram:SellerTradeParty',
    'ram:BuyerTradeParty',
    'ram:BuyerOrderReferencedDocument',
    'ram:AdditionalReferencedDocument',
  ],
  'ram:SellerTradeParty': TRADE_PARTY,
  'ram:BuyerTradeParty': TRADE_PARTY,
  'ram:SpecifiedLegalOrganization': ['ram:ID', 'ram:TradingBusinessName'],
  'ram:DefinedTradeContact': [
    'ram:PersonName',
    'ram:TelephoneUniversalCommunication',
    'ram:EmailURIUniversalCommunication',
  ],
  'ram:PostalTradeAddress': ['ram:PostcodeCode', 'ram:LineOne', 'ram:CityName', 'ram:CountryID'],
  'ram:AdditionalReferencedDocument': [
    'ram:IssuerAssignedID',
    'ram:URIID',
    'ram:TypeCode',
    'ram:Name',
    'ram:AttachmentBinaryObject',
  ],
  'ram:ApplicableHeaderTradeDelivery': ['ram:ShipToTradeParty', 'ram:ActualDeliverySupplyChainEvent'],
  'ram:ApplicableHeaderTradeSettlement': [
    'ram:CreditorReferenceID',
    'ram:PaymentReference',
    'ram:InvoiceCurrencyCode',
    'ram:SpecifiedTradeSettlementPaymentMeans',
    'ram:ApplicableTradeTax',
    'ram:BillingSpecifiedPeriod',
    'ram:SpecifiedTradeAllowanceCharge',
    'ram:SpecifiedTradePaymentTerms',
    'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
    'ram:InvoiceReferencedDocument',
  ],
  'ram:SpecifiedTradeSettlementPaymentMeans': [
    'ram:TypeCode',
    'ram:PayerPartyDebtorFinancialAccount',
    'ram:PayeePartyCreditorFinancialAccount',
    'ram:PayeeSpecifiedCreditorFinancialInstitution',
  ],
  'ram:BillingSpecifiedPeriod': PERIOD,
  'ram:SpecifiedTradePaymentTerms': ['ram:Description', 'ram:DueDateDateTime', 'ram:DirectDebitMandateID'],
  'ram:SpecifiedTradeSettlementHeaderMonetarySummation': [
    'ram:LineTotalAmount',
    'ram:ChargeTotalAmount',
    'ram:AllowanceTotalAmount',
    'ram:TaxBasisTotalAmount',
    'ram:TaxTotalAmount',
    'ram:RoundingAmount',
    'ram:GrandTotalAmount',
    'ram:TotalPrepaidAmount',
    'ram:DuePayableAmount',
  ],
  'ram:InvoiceReferencedDocument': ['ram:IssuerAssignedID', 'ram:FormattedIssueDateTime'],
};

export const CII_SYNTAX: XmlSyntax = {
  name: 'cii',
  namespaces: CII_NS,
  // An invoice and a credit note are the same CrossIndustryInvoice, told apart by the type code (BT-3).
  root: () => ({ name: 'rsm:CrossIndustryInvoice', namespace: CII_NS.rsm }),
  path: (holder) => holder.cii,
  fixed: (group) => group.fixed?.cii ?? {},
  companions: {
    'ram:ApplicableTradeTax': { 'ram:TypeCode': 'VAT' },
    'ram:CategoryTradeTax': { 'ram:TypeCode': 'VAT' },
  },
  // The XSD requires the delivery aggregate, which an invoice without delivery information leaves empty.
  implied: {},
  always: ['rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery'],
  date: (value) => value.replace(/-/g, ''),
  readDate: (text) => (/^\d{8}$/.test(text) ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : undefined),
  sequences: SEQUENCES,
};
