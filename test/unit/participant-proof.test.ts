import sources from '../../domain/data/participant-id-sources.json';
import easCodes from '../../domain/data/eas-codes.json';
import {
  identityStanding,
  participantProof,
  registrableParticipant,
  type CompanyIdentity,
} from '../../domain/kyc/participant-proof';

const verified: CompanyIdentity = {
  peppol_id: '0208:0123456749',
  name: 'Example Consulting SRL',
  company_registration_id: '0123.456.749',
  tax_id: 'BE 0123 456 749',
};

describe('a Peppol id proven to be the company’s own', () => {
  it('the verified Peppol id itself, in any case', () => {
    expect(participantProof('0208:0123456749', verified)).toEqual({ by: 'verified_peppol_id' });
    expect(participantProof('9925:be0123456749', { ...verified, peppol_id: '9925:BE0123456749' })).toEqual({
      by: 'verified_peppol_id',
    });
  });

  it.each([
    ['9925:BE0123456749', 'tax_id'],
    ['0208:0123456749', 'company_registration_id'],
  ])('%s carries the verified number (%s)', (peppolId, by) => {
    expect(participantProof(peppolId, { ...verified, peppol_id: null })).toMatchObject({ by });
  });

  it.each<[string, Partial<CompanyIdentity>]>([
    ['0106:12345678', { company_registration_id: '1234 5678' }],
    ['9944:NL123456789B01', { tax_id: 'NL123456789B01' }],
    ['0007:5560360793', { company_registration_id: '556036-0793' }],
    ['0007:5560360793', { tax_id: 'SE556036079301' }],
    ['0192:974760673', { tax_id: 'NO 974 760 673 MVA' }],
    ['9930:DE123456789', { tax_id: 'de123456789' }],
    ['0002:732829320', { tax_id: 'FR44732829320' }],
    ['0184:12345678', { company_registration_id: 'DK12345678' }],
    ['9933:123456783', { tax_id: 'EL123456783' }],
    ['0183:CHE109322551', { tax_id: 'CHE-109.322.551 MWST' }],
  ])('%s matches %j', (peppolId, numbers) => {
    expect(
      participantProof(peppolId, {
        peppol_id: null,
        name: null,
        company_registration_id: null,
        tax_id: null,
        ...numbers,
      }),
    ).not.toBeNull();
  });

  it.each([
    // The takeover: another business's enterprise number.
    ['0208:0987654394', verified],
    // A VAT scheme whose number is not the verified one.
    ['9930:DE999999999', { ...verified, tax_id: 'DE123456789' }],
    // A GLN names no register a KYC review verifies.
    ['0088:5790000435975', verified],
    // The number written for another scheme: a Dutch KvK number is not a Belgian enterprise number.
    ['0106:12345678', { ...verified, company_registration_id: '0123456749', tax_id: 'NL12345678B01' }],
    // Nothing verified at all.
    ['0208:0123456749', null],
  ])('%s is not proven by %j', (peppolId, identity) => {
    expect(participantProof(peppolId, identity)).toBeNull();
  });

  it('every scheme in the data file is a current EAS code', () => {
    for (const scheme of Object.keys(sources.schemes)) expect(easCodes.codes).toContain(scheme);
  });
});

describe('where a company’s participant id stands', () => {
  const current = (changes: Partial<CompanyIdentity> = {}): CompanyIdentity => ({ ...verified, ...changes });

  it('verified as approved: registered', () => {
    const standing = identityStanding(current(), verified, null);
    expect(standing).toEqual({ status: 'verified', proof: { by: 'verified_peppol_id' } });
    expect(registrableParticipant(standing, '0208:0123456749')).toBe('0208:0123456749');
  });

  it('another business’s id: reviewed, and nothing of it registered', () => {
    const standing = identityStanding(current({ peppol_id: '0208:0987654394' }), verified, null);
    expect(standing).toMatchObject({
      status: 'review',
      proof: null,
      why: expect.stringContaining("0208:0987654394 is not the company's verified registration id or VAT number"),
    });
    expect(registrableParticipant(standing, '0208:0987654394')).toBeNull();
  });

  it('a changed VAT number: reviewed, while the verified id stays registered', () => {
    const standing = identityStanding(current({ tax_id: 'BE0987654394' }), verified, null);
    expect(standing).toMatchObject({
      status: 'review',
      why: 'its tax_id changed after verification',
      proof: { by: 'verified_peppol_id' },
    });
    expect(registrableParticipant(standing, '0208:0123456749')).toBe('0208:0123456749');
  });

  it('a renamed company: reviewed, while the verified id stays registered; case and spacing are no rename', () => {
    const standing = identityStanding(current({ name: 'Another Business NV' }), verified, null);
    expect(standing).toMatchObject({
      status: 'review',
      why: 'its legal name changed after verification',
      proof: { by: 'verified_peppol_id' },
    });
    expect(registrableParticipant(standing, '0208:0123456749')).toBe('0208:0123456749');
    expect(identityStanding(current({ name: ' example  consulting srl' }), verified, null)).toMatchObject({
      status: 'verified',
    });
  });

  it('a legal name verified before names were kept is reviewed once', () => {
    expect(identityStanding(current(), { ...verified, name: null }, null)).toMatchObject({
      status: 'review',
      why: 'its legal name changed after verification',
    });
  });

  it('a changed VAT number cannot prove a new id: the proof reads the verified numbers only', () => {
    const standing = identityStanding(
      current({ peppol_id: '9925:BE0987654394', tax_id: 'BE0987654394' }),
      verified,
      null,
    );
    expect(standing).toMatchObject({ status: 'review', proof: null });
  });

  it('a company no KYC review covered: reviewed', () => {
    expect(identityStanding(current(), null, null)).toMatchObject({
      status: 'review',
      why: expect.stringContaining('not part of an approved KYC review'),
    });
  });

  it('an identity the operator refused stays refused until the company changes it', () => {
    const refused = current({ peppol_id: '0208:0987654394' });
    expect(
      identityStanding(refused, verified, { status: 'rejected', identity: refused, reason: 'not theirs' }),
    ).toMatchObject({ status: 'rejected', reason: 'not theirs' });
    expect(
      identityStanding(current({ peppol_id: '0208:0000000097' }), verified, {
        status: 'rejected',
        identity: refused,
        reason: 'not theirs',
      }),
    ).toMatchObject({ status: 'review' });
  });

  it('no Peppol id: nothing to prove', () => {
    expect(identityStanding(current({ peppol_id: null }), null, null)).toEqual({ status: 'none' });
  });
});
