import { callAs, signUp } from '../support/accounts';

/**
 * An id in the path names a resource or nothing: one far longer than any id
 * (schemathesis tried 101 characters and more) is not found, as any unknown
 * id is, never a 400 the description does not declare.
 */
describe('a path id longer than any id', () => {
  const long = `com_${'x'.repeat(300)}`;
  it.each([
    ['GET', `/v1/companies/${long}`, 'company_not_found'],
    ['DELETE', `/v1/companies/${long}`, 'company_not_found'],
    ['DELETE', `/v1/account/keys/ps_test_${'y'.repeat(300)}`, 'api_key_not_found'],
    ['GET', `/v1/documents/doc_${'z'.repeat(300)}/history`, 'document_not_found'],
    ['GET', `/v1/documents/doc_${'z'.repeat(300)}/ubl`, 'document_not_found'],
    ['GET', `/v1/documents/doc_${'z'.repeat(300)}/attachments`, 'document_not_found'],
    ['GET', `/v1/documents/doc_${'z'.repeat(300)}/attachments/att_${'w'.repeat(300)}`, 'document_not_found'],
  ])('when %s %s, then 404 %s', async (method, path, code) => {
    const account = await signUp('long-ids');
    const response = await callAs(account.key, path, { method });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe(code);
  });
});
