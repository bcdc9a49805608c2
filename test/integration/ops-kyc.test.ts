import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { connectDatabase } from '../../platform/database';
import { uploadKycDocument } from '../../services/kyc/documents';
import { operatorActor } from '../../services/operator/workspaces';
import { openStore, type Store } from '../../store';
import { kycSubmissionId } from '../../store/kyc-submissions';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, signUp, withStore } from '../support/accounts';
import { LIVE, waitForStatus } from '../support/documents';
import { completeSubmission, files, readyToSubmit, submit, upload, waitForKyc } from '../support/kyc';
import { ops, opsWith } from '../support/ops';
import { sharedStack } from '../support/test-stack';

/** Each ops command is a Node process of its own: a test that runs several needs more than the default on a busy machine. */
const OPS_TEST_TIMEOUT_MS = 120_000;
jest.setTimeout(OPS_TEST_TIMEOUT_MS);

/**
 * The operator's KYC commands, and the whole way a new user goes live: sign
 * up, company, KYC documents, submit; the operator approves and adds
 * credits with the ops CLI; a live key sends.
 */
describe('the ops CLI for KYC review', () => {
  it(
    'when a submission is pending, then kyc list shows it, kyc approve approves it by signal, and a live key then sends with the credits the operator added',
    async () => {
      const account = await readyToSubmit('ops-approve');
      // What the seller's invoices need besides its name and Peppol id, given before the review that verifies them.
      const { tax_id, company_registration_id, address, iban } = belgianSeller;
      expect(
        (
          await callAs(account.key, `/v1/companies/${account.companyId}`, {
            method: 'PATCH',
            body: { tax_id, company_registration_id, address, iban },
          })
        ).status,
      ).toBe(200);
      expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);

      const listed = await ops('kyc', 'list', '--status', 'pending');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`${account.workspaceId}  pending`);
      expect(JSON.parse((await ops('kyc', 'show', account.workspaceId)).stdout)).toMatchObject({ status: 'pending' });

      const approved = await ops('kyc', 'approve', account.workspaceId);
      expect(approved).toMatchObject({ code: 0, stdout: `workspace ${account.workspaceId}: approved\n` });
      await waitForKyc(account.key, (state) => state.status === 'approved');
      const audit = await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit`);
      expect(audit.body.data.find((entry: { action: string }) => entry.action === 'kyc.approved')).toMatchObject({
        actor: { account_id: 'operator:test-operator' },
      });

      expect((await ops('credits', 'add', account.workspaceId, '1.00')).code).toBe(0);
      const live = await callAs(account.key, '/v1/account/keys', {
        method: 'POST',
        body: { sandbox: false, label: 'live' },
      });
      const body = { ...validFixtures[0]!.body, company_id: account.companyId, number: 'FIRST-LIVE' };
      const sent = await callAs(live.body.api_key, '/v1/documents', { method: 'POST', body, host: LIVE });
      expect(sent.status).toBe(202);
      // The first live send of a run may meet both access points' JVMs cold, on a machine the other test files keep busy.
      expect(
        (
          await waitForStatus(live.body.api_key, sent.body.id, account.companyId, ['delivered', 'failed'], 90_000, {
            host: LIVE,
          })
        ).status,
      ).toBe('delivered');
      expect((await callAs(account.key, `/v1/workspaces/${account.workspaceId}`)).body).toMatchObject({
        mode: 'live',
        credit_balance: '0.90',
      });
    },
    OPS_TEST_TIMEOUT_MS + 90_000,
  );

  it('when a stored legal name holds line breaks, escapes and bidi overrides, then kyc list prints the submission as one row with them escaped', async () => {
    const account = await readyToSubmit('ops-escape');
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    // The API refuses such names now; rows written before the rule (or by another path) may still hold them.
    const forged = `Acme BV\r\nwsp_forged  approved  #1  2026-01-01T00:00:00.000Z  Forged \u001b[2J\u202eVB`;
    await withStore((store) =>
      store.kycSubmissions.updateOne(
        { _id: kycSubmissionId(account.workspaceId, 1) },
        { $set: { legal_name: forged } },
      ),
    );

    const listed = await ops('kyc', 'list', '--status', 'pending');
    expect(listed.code).toBe(0);
    const rows = listed.stdout
      .split('\n')
      .filter((line) => line.includes(account.workspaceId) || line.includes('wsp_forged'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${account.workspaceId}  pending   #1  \\S+  `));
    expect(
      rows[0]!.endsWith(
        '  Acme BV\\u000d\\nwsp_forged  approved  #1  2026-01-01T00:00:00.000Z  Forged \\u001b[2J\\u202eVB (0123.456.749)',
      ),
    ).toBe(true);
    const raw = /[\r\u001b\u202e]/; // eslint-disable-line no-control-regex -- what must not reach the terminal
    expect(listed.stdout).not.toMatch(raw);
    const shown = await ops('kyc', 'show', account.workspaceId);
    expect(shown.stdout).not.toMatch(raw);
    expect(JSON.parse(shown.stdout).submission.legal_name).toBe(forged);
  });

  it('when the operator rejects, then the customer sees the reason; deciding again, or a workspace without a pending review, is one line and exit 1', async () => {
    const account = await readyToSubmit('ops-reject');
    await submit(account.key, completeSubmission(account.companyId));
    const rejected = await ops('kyc', 'reject', account.workspaceId, 'the registry extract is older than three months');
    expect(rejected.code).toBe(0);
    const state = await waitForKyc(account.key, (current) => current.status === 'rejected');
    expect(state.reject_reason).toBe('the registry extract is older than three months');

    const again = await ops('kyc', 'approve', account.workspaceId);
    expect(again).toMatchObject({
      code: 1,
      stderr: `ops: workspace ${account.workspaceId} has no pending KYC review (status rejected)\n`,
    });
    expect((await ops('kyc', 'approve', 'wsp_doesnotexist')).stderr).toBe('ops: no workspace wsp_doesnotexist\n');
    expect((await ops('kyc', 'list', '--status', 'maybe')).code).toBe(1);
  });
});

describe('the ops CLI for KYC content, which is sealed at rest', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-ops-kyc-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when the operator takes a document for review, then kyc document writes its bytes to a new file for the operator only, and the reading is audited', async () => {
    const account = await signUp('ops-document');
    const uploaded = await upload(account.key, {
      doc_type: 'representative_id',
      filename: 'id.png',
      content: files.png.toString('base64'),
    });
    expect(uploaded.status).toBe(201);
    const file = path.join(dir, 'id.png');

    const written = await ops('kyc', 'document', uploaded.body.id, file);
    expect(written).toMatchObject({
      code: 0,
      stdout: `${file}: representative_id id.png (image/png, ${files.png.length} bytes, SHA-256 checked)\n`,
    });
    expect((await readFile(file)).equals(files.png)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await ops('kyc', 'document', uploaded.body.id, file)).toMatchObject({
      code: 1,
      stderr: `ops: ${file} exists; name a new file\n`,
    });
    expect(await ops('kyc', 'document', 'kyd_doesnotexist', path.join(dir, 'none'))).toMatchObject({
      code: 1,
      stderr: 'ops: no KYC document kyd_doesnotexist\n',
    });
    // Under another key, the content does not open.
    expect(
      (
        await opsWith(
          { KYC_ENCRYPTION_KEY: newSecretKey() },
          'kyc',
          'document',
          uploaded.body.id,
          path.join(dir, 'other'),
        )
      ).code,
    ).toBe(1);

    const audit = await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit`);
    expect(audit.body.data.filter((entry: { action: string }) => entry.action === 'kyc.document_read')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ account_id: 'operator:test-operator' }),
        target: { type: 'kyc_document', id: uploaded.body.id },
      }),
    ]);
  });

  describe('kyc reseal, on a database of its own (it reseals every blob there)', () => {
    const operator = operatorActor('seeder');
    const workspaceId = 'wsp_reseal';
    const [oldKey, newKey, strayKey] = [newSecretKey(), newSecretKey(), newSecretKey()];
    const { keyId: newKeyId } = new SecretBox(newKey);
    let uri: string;
    let store: Store;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const url = new URL(sharedStack().mongodbUri);
      url.pathname = `/einvoice_reseal_${Date.now().toString(36)}`;
      uri = url.toString();
      const db = await connectDatabase(uri);
      store = await openStore(db);
      close = async () => {
        await db.dropDatabase();
        await db.close();
      };
    });
    afterAll(async () => {
      await close();
    });

    const seal = (key: string, bytes: Buffer, filename: string) =>
      uploadKycDocument(store, new SecretBox(key), operator, workspaceId, {
        docType: 'registry_extract',
        bytes,
        mimeType: 'application/pdf',
        filename,
        companyId: null,
        grantorName: null,
      });
    const rawBlob = async (documentId: string) => {
      const document = await store.kycDocuments.findById(documentId).lean();
      return (await store.kycBlobs.findById(document!.storage_key).lean())!;
    };
    const reseal = (variables: Record<string, string>) => opsWith({ MONGODB_URI: uri, ...variables }, 'kyc', 'reseal');

    it('when blobs are stored in the clear (from before sealing), under the previous key and under a key nobody configured, then reseal seals the first two under the current key, names what is left, and running it again changes nothing', async () => {
      const plain = Buffer.concat([files.pdf, Buffer.from('stored before sealing')]);
      const legacy = await seal(oldKey, plain, 'legacy.pdf');
      // As the rows were written before sealing: the plain bytes, no key id.
      await store.kycBlobs.updateOne({ _id: legacy.storage_key }, { $set: { content: plain }, $unset: { key_id: 1 } });
      const previous = await seal(oldKey, files.pdf, 'previous.pdf');
      const stray = await seal(strayKey, files.pdf, 'stray.pdf');

      const first = await reseal({ KYC_ENCRYPTION_KEY: newKey, KYC_ENCRYPTION_KEY_PREVIOUS: oldKey });
      expect(first.code).toBe(1);
      expect(first.stderr).toMatch(
        new RegExp(
          `^ops: KYC content under key ${newKeyId}: 2 sealed now, 0 already; 1 left:\n  ${stray.storage_key}: sealed under key [0-9a-f]{16}, which is neither`,
        ),
      );
      for (const [document, bytes] of [
        [legacy, plain],
        [previous, files.pdf],
      ] as const) {
        const blob = await rawBlob(document._id);
        expect(blob.key_id).toBe(newKeyId);
        expect(Buffer.from(blob.content.value()).includes(bytes.subarray(0, 8))).toBe(false);
        // The previous key is no longer needed to read it.
        const file = path.join(dir, `${document._id}.pdf`);
        expect(
          (await opsWith({ MONGODB_URI: uri, KYC_ENCRYPTION_KEY: newKey }, 'kyc', 'document', document._id, file)).code,
        ).toBe(0);
        expect((await readFile(file)).equals(bytes)).toBe(true);
      }

      const withStrayKey = await reseal({ KYC_ENCRYPTION_KEY: newKey, KYC_ENCRYPTION_KEY_PREVIOUS: strayKey });
      expect(withStrayKey).toMatchObject({
        code: 0,
        stdout: `KYC content under key ${newKeyId}: 1 sealed now, 2 already\n`,
      });
      expect(await reseal({ KYC_ENCRYPTION_KEY: newKey })).toMatchObject({
        code: 0,
        stdout: `KYC content under key ${newKeyId}: 0 sealed now, 3 already\n`,
      });

      const resealed = await store.auditEvents
        .find({ workspace_id: workspaceId, action: 'kyc.document_resealed' })
        .lean();
      expect(
        Object.fromEntries(
          resealed.map((event) => [event.target_id, { actor: event.actor_account_id, details: event.details }]),
        ),
      ).toEqual({
        [legacy._id]: { actor: 'operator:test-operator', details: { from_key_id: null, to_key_id: newKeyId } },
        [previous._id]: {
          actor: 'operator:test-operator',
          details: { from_key_id: new SecretBox(oldKey).keyId, to_key_id: newKeyId },
        },
        [stray._id]: {
          actor: 'operator:test-operator',
          details: { from_key_id: new SecretBox(strayKey).keyId, to_key_id: newKeyId },
        },
      });
      expect(resealed).toHaveLength(3);
    });
  });
});
