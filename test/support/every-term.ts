import type { TermDocument } from '../../domain/terms/document';

/**
 * A document that gives every term of the term table a value (its rows'
 * examples, made consistent): what the table-driven writers are checked
 * with, so a row whose path the syntax's sequences miss, or that the
 * official rules refuse, is found.
 */
export const EVERY_TERM: TermDocument = {
  specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  process: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  type: 'invoice',
  type_code: '380',
  number: 'INV-2026-001',
  issue_date: '2026-12-01',
  due_date: '2026-12-31',
  currency: 'EUR',
  note: 'Thank you for your order',
  buyer_reference: 'PO-4711',
  order_reference: 'PO-2026-118',
  invoice_reference: { number: 'INV-2026-000', issue_date: '2026-11-15' },
  period: { start: '2026-11-01', end: '2026-11-30' },
  from: {
    name: 'Example Seller NV',
    trading_name: 'Example Seller NV',
    peppol_id: '0208:0123456749',
    tax_id: 'BE0123456749',
    company_registration_id: '0123456749',
    contact_name: 'Accounts receivable',
    phone: '+32 2 555 01 01',
    email: 'billing@seller.example',
    address: { street: 'Rue de la Loi 16', city: 'Brussels', postal_code: '1000', country: 'BE' },
  },
  to: {
    name: 'Example Buyer BV',
    trading_name: 'Example Buyer BV',
    peppol_id: '0106:12345678',
    tax_id: 'NL123456789B01',
    company_registration_id: '12345678',
    contact_name: 'Purchasing',
    phone: '+31 20 555 0101',
    email: 'ap@buyer.example',
    address: { street: 'Keizersgracht 1', city: 'Amsterdam', postal_code: '1015 CJ', country: 'NL' },
  },
  delivery: { date: '2026-11-28', street: 'Kade 12', city: 'Antwerp', postal_code: '2000', country: 'BE' },
  payment: {
    means_code: '59',
    reference: '+++090/9337/55493+++',
    iban: 'BE68539007547034',
    bic: 'GKCCBEBB',
    terms: '30 days net',
    mandate_reference: 'MANDATE-17',
    creditor_id: 'BE69ZZZ050D000000008',
    debited_account: 'NL91ABNA0417164300',
  },
  allowances: [{ amount: '10.00', tax_category: 'S', tax_rate: '21', reason: 'Volume discount', reason_code: '95' }],
  charges: [{ amount: '5.00', tax_category: 'S', tax_rate: '21', reason: 'Packing', reason_code: 'ABL' }],
  lines: [
    {
      id: '1',
      note: 'Delivered in two parts',
      quantity: '2',
      unit: 'HUR',
      net: '100.00',
      description: 'Consulting, November',
      item_id: 'SKU-118',
      tax_category: 'S',
      tax_rate: '21',
      unit_price: '52.50',
      price_base_quantity: '1',
      price_base_unit: 'HUR',
      allowances: [{ amount: '10.00', reason: 'Loyalty discount', reason_code: '95' }],
      charges: [{ amount: '5.00', reason: 'Travel', reason_code: 'FC' }],
    },
    // Reverse charged: the breakdown's exemption reason is carried on the line in the JSON view.
    { id: '2', quantity: '1', unit: 'C62', net: '50.00', description: 'Licence', tax_category: 'AE', tax_rate: '0', tax_exemption_reason: 'Reverse charge', tax_exemption_reason_code: 'VATEX-EU-AE', unit_price: '50.00' },
  ],
  attachments: [
    { id: 'DELIVERY-NOTE', description: 'Delivery note', uri: 'https://seller.example/notes/118' },
    { id: 'att_timesheet', description: 'Timesheet', filename: 'timesheet.csv', mime_type: 'text/csv', content: Buffer.from('day,hours\n1,8\n').toString('base64') },
  ],
  totals: {
    line_extension: '150.00',
    allowance_total: '10.00',
    charge_total: '5.00',
    tax_exclusive: '145.00',
    tax: '19.95',
    tax_inclusive: '164.95',
    prepaid: '14.95',
    payable_rounding: '0.05',
    payable: '150.05',
  },
  vat_breakdown: [
    { category: 'S', rate: '21', taxable: '95.00', tax: '19.95' },
    { category: 'AE', rate: '0', taxable: '50.00', tax: '0.00', exemption_reason: 'Reverse charge', exemption_reason_code: 'VATEX-EU-AE' },
  ],
};
