import { createHash } from 'node:crypto';

import { SecretBox } from '../../domain/secret-box';
import { callAs, signUp, teamWorkspace, withStore } from '../support/accounts';
import {
  completeSubmission,
  createCompany,
  files,
  MIME,
  pdfUpload,
  readyToSubmit,
  submit,
  upload,
  WORKSPACE_DOC_TYPES,
} from '../support/kyc';
import { sharedStack } from '../support/test-stack';

const MAX_BYTES = 10 * 1024 * 1024;
const base64 = (bytes: Buffer) => bytes.toString('base64');

describe('KYC through the API', () => {
  it('when a fresh workspace reads its KYC, then it is none, with the attestation in force and what submitting needs', async () => {
    const account = await signUp('kyc');
    const response = await callAs(account.key, '/v1/kyc');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'none',
      company_id: null,
      submitted_at: null,
      reviewed_at: null,
      reject_reason: null,
      review_reference: null,
      legal_name: null,
      enterprise_number: null,
      attestation: {
        name: null,
        role: null,
        version: null,
        current_version: '2026-08-26',
        text: expect.stringContaining('I confirm that'),
      },
      documents: [],
      mandate_coverage: { companies_with_mandate: 0, total_companies: 0 },
      requirements: {
        has_company: false,
        own_company_id: null,
        missing_workspace_doc_types: [...WORKSPACE_DOC_TYPES],
        can_submit: false,
      },
    });
  });

  it.each([
    ['pdf', files.pdf],
    ['png', files.png],
    ['jpeg', files.jpeg],
    ['xlsx', files.xlsx],
  ] as const)(
    'when a %s is uploaded under a name that says nothing, then its type comes from its bytes, hash and key stay inside, and the stored bytes are sealed',
    async (kind, bytes) => {
      const account = await signUp('kyc');
      const response = await upload(account.key, {
        doc_type: 'registry_extract',
        filename: 'scan.bin',
        content: base64(bytes),
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^kyd_/),
        company_id: null,
        doc_type: 'registry_extract',
        filename: 'scan.bin',
        mime_type: MIME[kind],
        size_bytes: bytes.length,
        mandate_grantor_name: null,
        created_at: expect.any(String),
      });
      const state = await callAs(account.key, '/v1/kyc');
      expect(state.body.documents).toEqual([response.body]);
      expect(JSON.stringify(state.body)).not.toMatch(/sha256|storage_key/);
      await withStore(async (store) => {
        const row = await store.kycDocuments.findById(response.body.id).lean();
        const blob = await store.kycBlobs.findById(row!.storage_key).lean();
        expect(row!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        expect(blob!.sha256).toBe(row!.sha256);
        // The row as the database holds it: neither the file nor its first bytes (the type's signature) are there in the clear.
        const stored = Buffer.from(blob!.content.value());
        expect(stored.includes(bytes)).toBe(false);
        expect(stored.includes(bytes.subarray(0, 8))).toBe(false);
        const box = new SecretBox(sharedStack().kycEncryptionKey);
        expect(blob!.key_id).toBe(box.keyId);
        expect(box.openBytes(stored, blob!.key_id!, blob!._id).equals(bytes)).toBe(true);
      });
    },
  );

  it('when a PNG is named .pdf and declared application/pdf, then 400 kyc_mime_mismatch on file and nothing is stored', async () => {
    const account = await signUp('kyc');
    const response = await upload(account.key, {
      doc_type: 'registry_extract',
      filename: 'extract.pdf',
      mime_type: 'application/pdf',
      content: base64(files.png),
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      type: 'validation_error',
      code: 'kyc_mime_mismatch',
      param: 'file',
      details: { declared: 'application/pdf', sniffed: 'image/png' },
    });
    expect((await callAs(account.key, '/v1/kyc')).body.documents).toEqual([]);
  });

  it.each([
    ['no content', 'kyc_missing_content', 'file', { doc_type: 'registry_extract' }],
    ['empty content', 'kyc_missing_content', 'file', { doc_type: 'registry_extract', content: '' }],
    [
      'content that is not base64',
      'kyc_invalid_encoding',
      'file',
      { doc_type: 'registry_extract', content: 'not base64!' },
    ],
    ['content that is not a string', 'kyc_invalid_encoding', 'file', { doc_type: 'registry_extract', content: 42 }],
    ['an unknown doc_type', 'kyc_invalid_doc_type', 'doc_type', { doc_type: 'passport', content: base64(files.pdf) }],
    ['no doc_type', 'kyc_invalid_doc_type', 'doc_type', { content: base64(files.pdf) }],
    ['a GIF', 'kyc_unsupported_type', 'file', { doc_type: 'registry_extract', content: base64(files.gif) }],
    ['a plain ZIP', 'kyc_unsupported_type', 'file', { doc_type: 'registry_extract', content: base64(files.zip) }],
    ['a Word document', 'kyc_unsupported_type', 'file', { doc_type: 'registry_extract', content: base64(files.docx) }],
    [
      'a ZIP that only mentions spreadsheet parts',
      'kyc_unsupported_type',
      'file',
      { doc_type: 'registry_extract', content: base64(files.zipMentioningXl) },
    ],
    [
      'a mandate without company_id',
      'kyc_mandate_requires_company',
      'company_id',
      { doc_type: 'mandate', mandate_grantor_name: 'Bob', content: base64(files.pdf) },
    ],
    [
      'a mandate without grantor',
      'kyc_mandate_requires_company',
      'mandate_grantor_name',
      { doc_type: 'mandate', company_id: 'com_x', content: base64(files.pdf) },
    ],
    [
      'a workspace document with company_id',
      'kyc_doc_pairing_invalid',
      'company_id',
      { doc_type: 'authority_proof', company_id: 'com_x', content: base64(files.pdf) },
    ],
    [
      'a workspace document with a grantor',
      'kyc_doc_pairing_invalid',
      'mandate_grantor_name',
      { doc_type: 'representative_id', mandate_grantor_name: 'Bob', content: base64(files.pdf) },
    ],
  ])('when an upload has %s, then 400 %s naming %s', async (_case, code, param, body) => {
    const account = await signUp('kyc');
    const response = await upload(account.key, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'validation_error', code, param });
  });

  it('when a file is one byte over 10 MB, then 413 kyc_document_too_large; exactly 10 MB is taken', async () => {
    const account = await signUp('kyc');
    const exactly = Buffer.alloc(MAX_BYTES, 0x20);
    files.pdf.copy(exactly);
    const over = await upload(account.key, {
      doc_type: 'registry_extract',
      content: base64(Buffer.concat([exactly, Buffer.from(' ')])),
    });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({
      code: 'kyc_document_too_large',
      param: 'file',
      details: { size_bytes: MAX_BYTES + 1, limit_bytes: MAX_BYTES },
    });
    const taken = await upload(account.key, { doc_type: 'registry_extract', content: base64(exactly) });
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({
      size_bytes: MAX_BYTES,
      mime_type: 'application/pdf',
      filename: 'registry_extract.pdf',
    });
  });

  it('when a mandate names a company of another workspace, then 404 company_not_found; one of its own is taken', async () => {
    const account = await signUp('kyc');
    const stranger = await signUp('stranger');
    const foreign = await createCompany(stranger.key, 'Foreign BV');
    const own = await createCompany(account.key, 'Client BV');
    const refused = await upload(
      account.key,
      pdfUpload('mandate', { company_id: foreign, mandate_grantor_name: 'Foreign CEO' }),
    );
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: 'company_not_found', param: 'company_id' });
    const taken = await upload(
      account.key,
      pdfUpload('mandate', { company_id: own, mandate_grantor_name: 'Client CEO' }),
    );
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ doc_type: 'mandate', company_id: own, mandate_grantor_name: 'Client CEO' });
  });

  it('when a member uploads or submits, then 403 insufficient_role; members still read the state', async () => {
    const owner = await signUp('owner');
    const { members, workspaceId, ownerTeamKey } = await teamWorkspace(owner, ['admin']);
    const companyId = await createCompany(ownerTeamKey, 'Team BV');
    const created = await callAs(members.admin!.key, '/v1/account/keys', {
      method: 'POST',
      body: { workspace_id: workspaceId, label: 'team' },
    });
    const teamKey: string = created.body.api_key;
    expect((await upload(teamKey, pdfUpload('registry_extract'))).status).toBe(201);
    await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${members.admin!.id}`, {
      method: 'PATCH',
      body: { role: 'member' },
    });
    for (const response of [
      await upload(teamKey, pdfUpload('registry_extract')),
      await submit(teamKey, completeSubmission(companyId)),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('insufficient_role');
    }
    expect((await callAs(teamKey, '/v1/kyc')).body.documents).toHaveLength(1);
  });

  it('when the gates fail one by one, then each answer names the first failing gate in the spec’s order', async () => {
    const account = await signUp('kyc');
    const expectGate = async (body: Record<string, unknown>, code: string, extra: Record<string, unknown> = {}) => {
      const response = await submit(account.key, body);
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ type: 'validation_error', code, ...extra });
    };
    await expectGate({}, 'kyc_no_companies');
    const companyId = await createCompany(account.key, 'Acme BV');
    const complete = completeSubmission(companyId);
    await expectGate({}, 'kyc_no_own_company', { param: 'company_id' });
    await expectGate({ ...complete, company_id: '  ' }, 'kyc_no_own_company');
    await expectGate({ company_id: 'com_000000000000000000000000' }, 'kyc_invalid_company', { param: 'company_id' });
    await expectGate({ company_id: companyId }, 'kyc_missing_documents', {
      details: { missing: [...WORKSPACE_DOC_TYPES] },
    });
    await upload(account.key, pdfUpload('representative_id'));
    await expectGate({ company_id: companyId }, 'kyc_missing_documents', {
      details: { missing: ['registry_extract', 'authority_proof'] },
    });
    await upload(account.key, pdfUpload('registry_extract'));
    await upload(account.key, pdfUpload('authority_proof'));
    await expectGate({ company_id: companyId, kyc_legal_name: ' ' }, 'kyc_missing_legal_name', {
      param: 'kyc_legal_name',
    });
    await expectGate({ ...complete, kyc_enterprise_number: null }, 'kyc_missing_enterprise_number');
    await expectGate({ ...complete, attestation_name: '' }, 'kyc_attestation_incomplete', {
      param: 'attestation_name',
    });
    await expectGate({ ...complete, attestation_role: undefined }, 'kyc_attestation_incomplete', {
      param: 'attestation_role',
    });
    await expectGate({ ...complete, attested: false }, 'kyc_attestation_not_accepted');
    await expectGate({ ...complete, attested: 'true' }, 'kyc_attestation_not_accepted');
    await expectGate({ ...complete, attestation_version: '2025-01-01' }, 'kyc_attestation_version_mismatch', {
      details: { current_version: '2026-08-26' },
    });
    expect((await callAs(account.key, '/v1/kyc')).body.status).toBe('none');

    // Mandates never gate: a second company without one does not hold the submission back.
    await createCompany(account.key, 'Client BV');
    const submitted = await submit(account.key, complete);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      status: 'pending',
      company_id: companyId,
      submitted_at: expect.any(String),
      reviewed_at: null,
      review_reference: `kyc-${account.workspaceId}#1`,
      legal_name: 'Acme BV',
      enterprise_number: '0123.456.749',
      attestation: {
        name: 'Ann Owner',
        role: 'Managing director',
        version: '2026-08-26',
        current_version: '2026-08-26',
      },
      mandate_coverage: { companies_with_mandate: 1, total_companies: 2 },
      requirements: {
        has_company: true,
        own_company_id: companyId,
        missing_workspace_doc_types: [],
        can_submit: false,
      },
    });
    expect(submitted.body.documents).toHaveLength(3);
  });

  it('when a field of the submission has the wrong type, then 400 naming it before any gate', async () => {
    const account = await signUp('kyc');
    const response = await submit(account.key, { kyc_legal_name: 12 });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', param: 'kyc_legal_name' });
  });

  it.each([
    ['kyc_legal_name', 'Acme BV\r\nwsp_forged  approved'],
    ['kyc_enterprise_number', '0123.456.749\n'],
    ['attestation_name', 'Ann\u001b[2JOwner'],
    ['attestation_role', 'Managing\u0085director'],
  ])(
    'when %s holds a control character other than tab, then 400 invalid_field naming it and nothing is submitted',
    async (field, value) => {
      const account = await readyToSubmit();
      const response = await submit(account.key, { ...completeSubmission(account.companyId), [field]: value });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'invalid_field',
        param: field,
        message: expect.stringContaining('one line'),
      });
      expect((await callAs(account.key, '/v1/kyc')).body.status).toBe('none');
    },
  );

  it('when a tab is in a KYC text field, then it is taken', async () => {
    const account = await readyToSubmit();
    expect(
      (await submit(account.key, { ...completeSubmission(account.companyId), attestation_role: 'Managing\tdirector' }))
        .status,
    ).toBe(200);
  });

  it.each([
    ['filename', { filename: 'extract\n.pdf' }],
    ['mandate_grantor_name', { mandate_grantor_name: 'Client\r\nCEO' }],
  ])("when an upload's %s holds a line break, then 400 invalid_field naming it", async (field, extra) => {
    const account = await signUp('kyc');
    const companyId = await createCompany(account.key, 'Client BV');
    const body =
      field === 'filename'
        ? pdfUpload('registry_extract', extra)
        : pdfUpload('mandate', { company_id: companyId, ...extra });
    const response = await upload(account.key, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', param: field });
  });

  it('when a document is deleted before submitting, then it is no longer listed, counted or submitted, the deletion is audited, another workspace or a member cannot delete it, and after submitting it is 409 kyc_locked', async () => {
    const account = await readyToSubmit();
    const remove = (key: string, id: string) => callAs(key, `/v1/kyc/documents/${id}`, { method: 'DELETE' });
    const [wrong] = (await callAs(account.key, '/v1/kyc')).body.documents as { id: string }[];
    expect(
      await upload(
        account.key,
        pdfUpload('mandate', { company_id: account.companyId, mandate_grantor_name: 'Ann Owner' }),
      ),
    ).toMatchObject({ status: 201 });

    // Another workspace cannot delete it: not found, as one that does not exist.
    const stranger = await signUp('kyc-stranger');
    expect((await remove(stranger.key, wrong!.id)).body.error).toMatchObject({
      code: 'kyc_document_not_found',
      param: 'id',
    });
    // Nor can a member, in a workspace of theirs: an admin's key for it, the admin then made a member.
    const team = await teamWorkspace(account, ['admin']);
    const teamKey: string = (
      await callAs(team.members.admin!.key, '/v1/account/keys', {
        method: 'POST',
        body: { workspace_id: team.workspaceId, label: 'team' },
      })
    ).body.api_key;
    const teamDocument = await upload(teamKey, pdfUpload('registry_extract'));
    await callAs(account.key, `/v1/workspaces/${team.workspaceId}/members/${team.members.admin!.id}`, {
      method: 'PATCH',
      body: { role: 'member' },
    });
    expect((await remove(teamKey, teamDocument.body.id)).body.error).toMatchObject({ code: 'insufficient_role' });

    // Replaced: the wrong registry extract deleted, a new one uploaded.
    expect(await remove(account.key, wrong!.id)).toMatchObject({ status: 200, body: { deleted: true, id: wrong!.id } });
    const without = (await callAs(account.key, '/v1/kyc')).body;
    expect(without.documents.map((document: { id: string }) => document.id)).not.toContain(wrong!.id);
    expect(without.requirements).toMatchObject({
      missing_workspace_doc_types: ['registry_extract'],
      can_submit: false,
    });
    expect((await remove(account.key, wrong!.id)).status).toBe(404);
    const replacement = await upload(account.key, pdfUpload('registry_extract', { filename: 'extract-2026.pdf' }));
    expect(replacement.status).toBe(201);
    const audit = (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit?limit=100`)).body.data;
    expect(audit.find((entry: { action: string }) => entry.action === 'kyc.document_deleted')).toMatchObject({
      target: { type: 'kyc_document', id: wrong!.id },
      details: { doc_type: 'registry_extract', company_id: null },
    });

    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    const submitted = await withStore((store) =>
      store.kycSubmissions.findOne({ workspace_id: account.workspaceId }).lean(),
    );
    expect(submitted!.document_ids).not.toContain(wrong!.id);
    expect(submitted!.document_ids).toContain(replacement.body.id);
    const locked = await remove(account.key, replacement.body.id);
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatchObject({ code: 'kyc_locked', details: { status: 'pending' } });
  });

  it('when the review is pending, then uploads are 409 kyc_locked and a second submit is 409 kyc_not_submittable', async () => {
    const account = await readyToSubmit();
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    const locked = await upload(account.key, pdfUpload('registry_extract'));
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatchObject({ code: 'kyc_locked', details: { status: 'pending' } });
    const again = await submit(account.key, completeSubmission(account.companyId));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'kyc_not_submittable', details: { status: 'pending' } });
  });

  it('when 20 submits race, then exactly one wins and the others are 409 kyc_not_submittable', async () => {
    const account = await readyToSubmit();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => submit(account.key, completeSubmission(account.companyId))),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(
      responses
        .filter((response) => response.status === 409)
        .every((response) => response.body.error.code === 'kyc_not_submittable'),
    ).toBe(true);
    await withStore(async (store) =>
      expect(await store.kycSubmissions.countDocuments({ workspace_id: account.workspaceId })).toBe(1),
    );
    const audit = await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit`);
    expect(audit.body.data.filter((event: { action: string }) => event.action === 'kyc.submitted')).toHaveLength(1);
  });

  it('when companies and mandates come and go, then mandate coverage and requirements follow them', async () => {
    const account = await signUp('kyc');
    const own = await createCompany(account.key, 'Own BV');
    const client = await createCompany(account.key, 'Client BV');
    const coverage = async () => (await callAs(account.key, '/v1/kyc')).body.mandate_coverage;
    expect(await coverage()).toEqual({ companies_with_mandate: 0, total_companies: 2 });
    await upload(account.key, pdfUpload('mandate', { company_id: client, mandate_grantor_name: 'Client CEO' }));
    expect(await coverage()).toEqual({ companies_with_mandate: 1, total_companies: 2 });
    await createCompany(account.key, 'Second client BV');
    expect(await coverage()).toEqual({ companies_with_mandate: 1, total_companies: 3 });
    expect((await callAs(account.key, `/v1/companies/${client}`, { method: 'DELETE' })).status).toBe(200);
    expect(await coverage()).toEqual({ companies_with_mandate: 0, total_companies: 2 });
    for (const docType of WORKSPACE_DOC_TYPES) await upload(account.key, pdfUpload(docType));
    expect((await callAs(account.key, '/v1/kyc')).body.requirements).toEqual({
      has_company: true,
      own_company_id: null,
      missing_workspace_doc_types: [],
      can_submit: true,
    });
    await submit(account.key, completeSubmission(own));
    expect((await callAs(account.key, '/v1/kyc')).body.mandate_coverage).toEqual({
      companies_with_mandate: 1,
      total_companies: 2,
    });
  });
});
