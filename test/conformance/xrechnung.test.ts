import { ciiOfUbl } from '../../domain/cii/write';
import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { routingOf } from '../../domain/peppol/envelope';
import { readUbl } from '../../domain/ubl/received-reader';
import { XRECHNUNG_CUSTOMIZATION_ID } from '../../domain/ubl/xml';
import { validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { validateUbl } from '../support/peppol-validator';

/**
 * XRechnung 3.0 (issue 41): a document that asks for the profile is written
 * with XRechnung's CustomizationID, in UBL and in CII, and KoSIT's XRechnung
 * rules (phive-rules-xrechnung, in the validator) judge it; a missing
 * Leitweg-ID (BT-10) is refused naming BR-DE-15, by our checks before
 * anything is stored and by the official rules.
 */

const german = validFixtures.find((fixture) => fixture.name.startsWith('DE seller: domestic invoice with contact'))!;

function xrechnung(changes: Record<string, unknown> = {}) {
  const converted = convertDocument(
    documentInputSchema.parse({ ...german.body, company_id: 'com_x', profile: 'xrechnung', ...changes }),
    german.company,
  );
  if (!converted.ok) throw new Error(JSON.stringify(converted.violations));
  return converted.ubl;
}

describe('XRechnung 3.0', () => {
  const ubl = xrechnung();
  const cii = ciiOfUbl(ubl);
  if ('unsupported' in cii) throw new Error(cii.unsupported);

  it('when a document asks for the profile, then its UBL and its CII carry XRechnung’s specification identifier and the XRechnung rules pass both', async () => {
    expect(ubl).toContain(`<cbc:CustomizationID>${XRECHNUNG_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
    expect(cii.cii).toContain(`<ram:ID>${XRECHNUNG_CUSTOMIZATION_ID}</ram:ID>`);
    const [asUbl, asCii] = await validateUbl([
      { name: 'XRechnung UBL', xml: ubl },
      { name: 'XRechnung CII', xml: cii.cii },
    ]);
    expect(asUbl).toMatchObject({ valid: true, fatal: [] });
    expect(asCii).toMatchObject({ valid: true, fatal: [] });
  });

  it('when the Leitweg-ID (BT-10) is missing, then the XRechnung rules refuse it naming BR-DE-15', async () => {
    const [result] = await validateUbl([
      { name: 'no BT-10', xml: ubl.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '') },
    ]);
    expect(result?.fatal.map((finding) => finding.rule)).toContain('BR-DE-15');
  });

  it('when it is routed on Peppol, then it goes as the XRechnung document type under the billing process', () => {
    expect(routingOf(ubl).documentType.value).toBe(
      `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##${XRECHNUNG_CUSTOMIZATION_ID}::2.1`,
    );
  });

  it('when an XRechnung is received, then its JSON view says the profile and nothing about the specification is unmapped', () => {
    const read = readUbl(ubl);
    if ('unsupported' in read) throw new Error(read.unsupported);
    expect(read.document.profile).toBe('xrechnung');
    expect(read.unmapped).toEqual([]);
  });

  it('when a JSON XRechnung without buyer reference is validated, then BR-DE-15 is named at buyer_reference before anything is stored', async () => {
    const sender = await sendingAccount();
    const { buyer_reference: _reference, ...body } = german.body;
    const answer = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...body, order_reference: 'PO-1', profile: 'xrechnung', company_id: sender.companyId },
    });
    expect([answer.status, answer.body.error?.code]).toEqual([422, 'document_invalid']);
    expect(answer.body.error.details.violations).toContainEqual(
      expect.objectContaining({ path: 'buyer_reference', rule: 'BR-DE-15' }),
    );
  });
});
