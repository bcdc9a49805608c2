import { writeFile } from 'node:fs/promises';

import { createClient } from '../src/index.js';

const baseUrl = 'http://127.0.0.1:3000';
const { api_key } = await createClient({ baseUrl }).signup({ email: `me+${Date.now()}@example.com` });
const client = createClient({ apiKey: api_key, baseUrl });
const seller = await client.companies.create({ name: 'Example Consulting SRL', country: 'BE', tax_id: 'BE0745612076', peppol_id: '0208:0745612076',
  iban: 'BE68539007547034', address: { street: 'Rue de la Loi 1', city: 'Brussels', postal_code: '1000' } });
const sent = await client.documents.send({ company_id: seller.id, number: 'INV-1', issue_date: '2026-11-25', buyer_reference: 'DEPT-77',
  to: { name: 'Example Buyer NV', peppol_id: '0208:0987654394', email: 'ap@buyer.example', address: { country: 'BE' } },
  lines: [{ description: 'Consulting hours', quantity: 12.5, unit: 'HUR', unit_price: '100.00', tax_rate: 21 }] });
const doc = await client.documents.outcome(sent.id, seller.id); // polls until delivered or failed
console.log(doc.id, doc.status, doc.error_message ?? '');
await writeFile('INV-1.pdf', await client.documents.pdf(doc.id)); // the invoice as a person reads it
