import { companySummary, companyView, createCompany, listCompanies, updateCompany } from '../../services/companies';
import type { Store } from '../../store';
import { requireCompany, requireMembership, requireRole } from '../access';
import { ApiError } from '../errors';
import { z } from '../openapi';
import type { RouteTable } from '../route';
import { address, country, emailAddress, iban, peppolId, resourceId, role, text } from '../schemas';

const optionalFields = {
  company_registration_id: text(100).nullable().optional().openapi({ description: 'Legal registration id (e.g. enterprise number)' }),
  tax_id: text(50).nullable().optional().openapi({ description: 'VAT id', example: 'BE0123456749' }),
  email: emailAddress.nullable().optional(),
  iban: iban.nullable().optional(),
  address: address.nullable().optional(),
  peppol_id: peppolId.nullable().optional(),
};

const createBody = z
  .object({ name: text(200).openapi({ example: 'Acme BV' }), country, ...optionalFields })
  .strict()
  .openapi('CreateCompanyRequest');

const updateBody = z
  .object({ name: text(200).optional(), country: country.optional(), ...optionalFields })
  .strict()
  .openapi('UpdateCompanyRequest', { description: 'Only the fields sent change; send `null` to clear an optional field. At least one field.' });

const companySchema = z
  .object({
    id: z.string().openapi({ example: 'com_2Hk9LmQ4rT7vW0xY3zA6bC8d' }),
    name: z.string(),
    workspace_id: z.string(),
    is_live: z.boolean().openapi({ description: 'True once the company has a provider tenant (live sending)' }),
    company_registration_id: z.string().nullable(),
    tax_id: z.string().nullable(),
    email: z.string().nullable(),
    country: z.string(),
    address: z.object({ street: z.string().nullable(), city: z.string().nullable(), postal_code: z.string().nullable() }).nullable(),
    iban: z.string().nullable(),
    peppol_id: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Company');

const companySummarySchema = companySchema
  .pick({ id: true, name: true, tax_id: true, country: true, is_live: true, workspace_id: true, created_at: true })
  .openapi('CompanySummary');

const companyParams = z.object({ id: resourceId('company', 'com_2Hk9LmQ4rT7vW0xY3zA6bC8d') });
const companyErrors = ['missing_field', 'invalid_field', 'invalid_country', 'invalid_peppol_id'] as const;

export function companyRoutes(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'post',
    path: '/v1/companies',
    operationId: 'createCompany',
    summary: "Create a company in the caller's workspace (owner or admin)",
    tags: ['Companies'],
    body: createBody,
    responses: { 201: { description: 'The company, with the caller’s role', schema: companySchema.extend({ role }).omit({ updated_at: true }) } },
    errors: [...companyErrors, 'insufficient_role'],
    handler: async ({ auth, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, auth.workspaceId);
      requireRole(callerRole, ['owner', 'admin'], 'create companies');
      if (auth.companyId) throw new ApiError('insufficient_role', 'This API key is limited to one company and cannot create companies.');
      const company = await createCompany(store, auth.actor, auth.workspaceId, body);
      const { updated_at: _updatedAt, ...created } = companyView(company);
      return { status: 201, body: { ...created, role: callerRole } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/companies',
    operationId: 'listCompanies',
    summary: "Every company of the caller's workspace, newest first",
    tags: ['Companies'],
    responses: { 200: { description: 'Companies (summary)', schema: z.object({ data: z.array(companySummarySchema) }) } },
    handler: async ({ auth }) => {
      await requireMembership(store, auth, auth.workspaceId);
      const companies = await listCompanies(store, auth.workspaceId, auth.companyId);
      return { status: 200, body: { data: companies.map(companySummary) } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/companies/{id}',
    operationId: 'getCompany',
    summary: 'A company of a workspace the caller belongs to',
    tags: ['Companies'],
    params: companyParams,
    responses: { 200: { description: 'The company', schema: companySchema } },
    errors: ['company_not_found', 'invalid_field'],
    handler: async ({ auth, params }) => {
      const { company } = await requireCompany(store, auth, params.id);
      return { status: 200, body: companyView(company) };
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/companies/{id}',
    operationId: 'updateCompany',
    summary: 'Change fields of a company (owner or admin)',
    tags: ['Companies'],
    params: companyParams,
    body: updateBody,
    responses: { 200: { description: 'The company', schema: companySchema } },
    errors: [...companyErrors, 'no_fields_to_update', 'insufficient_role', 'company_not_found'],
    handler: async ({ auth, params, body }) => {
      const { company, role: callerRole } = await requireCompany(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'update companies');
      if (Object.keys(body).length === 0) {
        throw new ApiError('no_fields_to_update', 'Send at least one field to change.', { details: { fields: Object.keys(updateBody.shape) } });
      }
      return { status: 200, body: companyView(await updateCompany(store, auth.actor, company, body)) };
    },
  });
}
