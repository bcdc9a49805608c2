import { sellerIdentityViolations } from '../../domain/documents/sender-identity';
import type { CompanyIdentity } from '../../domain/kyc/participant-proof';
import type { Company } from '../../services/companies';
import { liveSenderRefusal, replySenderRefusal, requireVerifiedSender } from '../../services/documents/verified-sender';

const verified: CompanyIdentity = {
  peppol_id: '0208:0123456749',
  name: 'Example Seller SRL',
  company_registration_id: '0123456749',
  tax_id: 'BE0123456749',
};

describe('the seller a live document may state', () => {
  it('nothing stated, or the verified values written another way: no violation', () => {
    expect(sellerIdentityViolations({}, verified, 'json')).toEqual([]);
    expect(
      sellerIdentityViolations(
        {
          name: ' example   seller srl',
          tax_id: 'be 0123.456.749',
          peppol_id: '0208:0123456749',
          company_registration_id: '0123.456.749',
        },
        verified,
        'json',
      ),
    ).toEqual([]);
  });

  it('each field stated otherwise is named, at its JSON path or XPath', () => {
    const stated = {
      name: 'Another Business NV',
      peppol_id: '0208:0987654394',
      tax_id: 'BE0987654394',
      company_registration_id: '0987654394',
    };
    expect(sellerIdentityViolations(stated, verified, 'json').map((violation) => violation.path)).toEqual([
      'from.peppol_id',
      'from.name',
      'from.tax_id',
      'from.company_registration_id',
    ]);
    const [name] = sellerIdentityViolations({ name: 'Another Business NV' }, verified, 'ubl');
    expect(name).toEqual({
      path: 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName',
      rule: null,
      message: expect.stringMatching(
        /legal name \(BT-27\) is "Example Seller SRL", not "Another Business NV"\. State the verified value\. A trading name \(BT-28\) may differ/,
      ),
    });
  });

  it('a VAT id where the verified identity has none is another business’s', () => {
    expect(sellerIdentityViolations({ tax_id: 'BE0987654394' }, { ...verified, tax_id: null }, 'json')).toEqual([
      expect.objectContaining({ path: 'from.tax_id', message: expect.stringContaining('is none, not "BE0987654394"') }),
    ]);
  });
});

describe('the company a live document is sent for', () => {
  const at = new Date('2026-12-01T00:00:00Z');
  const company = (changes: Partial<Company> = {}): Company =>
    ({
      _id: 'com_1',
      ...verified,
      verified_identity: { ...verified, by: 'kyc', reviewer: null, at },
      participant_review: null,
      ...changes,
    }) as Company;

  it('verified: sends under its own Peppol id only', () => {
    expect(requireVerifiedSender(company())).toEqual(verified);
    expect(liveSenderRefusal(company(), '0208:0123456749')).toBeNull();
    expect(liveSenderRefusal(company(), '0208:0987654394')).toBe(
      "Its seller 0208:0987654394 is not the company's verified Peppol id 0208:0123456749.",
    );
  });

  it('an id under review, a rename, or no id: refused with why', () => {
    expect(() => requireVerifiedSender(company({ peppol_id: '0208:0987654394' }))).toThrow(
      expect.objectContaining({
        code: 'sender_not_verified',
        message: expect.stringContaining('waits for an operator'),
      }),
    );
    expect(liveSenderRefusal(company({ name: 'Renamed SA' }), '0208:0123456749')).toContain(
      'its legal name changed after verification',
    );
    expect(() => requireVerifiedSender(company({ peppol_id: null }))).toThrow(
      expect.objectContaining({ code: 'sender_not_verified', message: expect.stringContaining('has no peppol_id') }),
    );
    expect(liveSenderRefusal(company({ verified_identity: null }), '0208:0123456749')).toContain(
      'not part of an approved KYC review',
    );
  });

  it('an Invoice Response goes from the participant id proven its own, a rename under review or not', () => {
    expect(replySenderRefusal(company(), '0208:0123456749')).toBeNull();
    expect(replySenderRefusal(company({ name: 'Renamed SA' }), '0208:0123456749')).toBeNull();
    expect(replySenderRefusal(company(), '0208:0987654394')).toBe(
      "Its sender 0208:0987654394 is not a Peppol id proven to be company com_1's (0208:0123456749 is).",
    );
    expect(replySenderRefusal(company({ peppol_id: '0208:0987654394' }), '0208:0987654394')).toBe(
      "Its sender 0208:0987654394 is not a Peppol id proven to be company com_1's.",
    );
  });
});
