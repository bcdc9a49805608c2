import type { Store } from '../../../store';
import type { SecretBox } from '../../../domain/secret-box';
import { MIGRATION_KEY_LENGTH, migrationKeyProblem } from '../../../domain/peppol/migration-key';
import {
  createCompany,
  deleteCompany,
  findCompany,
  listCompanies,
  updateCompany,
  type Company,
} from '../../../services/companies';
import {
  changedForReceiving,
  liveCompanyIds,
  provisionOnCreate,
  pushParticipantChange,
  type ProvisioningDependencies,
} from '../../../services/provisioning';
import { issueMigrationKey, supplyMigrationKey } from '../../../services/receiving/migration';
import type { Actor } from '../../../services/audit';
import { companyNotFound, requireCompany, requireMembership, requireRole } from '../access';
import { z } from '../../contract/openapi';
import type { RouteTable } from '../route-table';
import { address, country, emailAddress, iban, idParam, peppolId, role, text } from '../../contract/schemas';
import { requireSomeField } from '../../http/validation';
import { companySchema, companySummary, companySummarySchema, companyView } from '../../contract/views/companies';

const optionalFields = {
  company_registration_id: text(100)
    .nullable()
    .optional()
    .openapi({ description: 'Legal registration id (e.g. enterprise number)' }),
  tax_id: text(50).nullable().optional().openapi({ description: 'VAT id', example: 'BE0123456749' }),
  email: emailAddress.nullable().optional(),
  iban: iban.nullable().optional(),
  address: address.nullable().optional(),
  peppol_id: peppolId.nullable().optional(),
  auto_acknowledge: z.boolean().optional().openapi({
    description:
      'Answer every invoice and credit note received with an Invoice Response `AB` (acknowledged) at once, as if posted to `POST /v1/documents/{id}/responses`. Default false',
  }),
  receive_cii: z
    .boolean()
    .optional()
    .openapi({
      description:
        'Receive Peppol BIS Billing 3.0 in the UN/CEFACT CII syntax as well: while the company is registered as a receiver, our SMP publishes the BIS Billing CII document type beside the UBL ones, ' +
        'so senders that write CII can reach it; what arrives is judged by the CII rules and kept as it came (`GET /v1/documents/{id}/cii`) beside the UBL written from it. Default false',
    }),
  migration_key: z
    .string()
    .min(MIGRATION_KEY_LENGTH.min)
    .max(MIGRATION_KEY_LENGTH.max)
    .regex(/^\S+$/, 'no whitespace')
    .superRefine((value, ctx) => {
      const problem = migrationKeyProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `Invalid migration key: ${problem}.` });
    })
    .optional()
    .openapi({
      description:
        'Write-only. The SMP migration key your previous Peppol provider issued for this `peppol_id` (SML 1.3.0: 8 to 24 characters, at least two each of lower-case letters, upper-case letters, digits and `@#$%()[]{}*^-!~|+=`). ' +
        'When the company is registered as a receiver, the SML moves the participant from that provider’s SMP to ours instead of refusing it as registered elsewhere; the key is sealed at rest and dropped once used. ' +
        'See `peppol_migration.incoming_key_supplied_at`',
      example: 'k7#Qm2$Rx9!pL4@wZ3^tN8+v',
    }),
  directory: z
    .boolean()
    .optional()
    .openapi({
      description:
        'List the company in the Peppol Directory (directory.peppol.eu) while it is registered as a receiver: our SMP serves its business card (name, country, `tax_id` as `vat`, `company_registration_id` as `orgnr`) and the Directory is told to read it. ' +
        'False keeps it out, and removes a card listed before. Default true; see `directory_listing`',
    }),
};

const createBody = z
  .object({ name: text(200).openapi({ example: 'Acme BV' }), country, ...optionalFields })
  .strict()
  .openapi('CreateCompanyRequest');

const updateBody = z
  .object({ name: text(200).optional(), country: country.optional(), ...optionalFields })
  .strict()
  .openapi('UpdateCompanyRequest', {
    description: 'Only the fields sent change; send `null` to clear an optional field. At least one field.',
    minProperties: 1,
  });

/** The fields a review verifies: what proves a live company's Peppol id its own, and the legal name its documents state (domain/kyc/participant-proof.ts). */
const IDENTITY_FIELDS = ['peppol_id', 'name', 'company_registration_id', 'tax_id'] as const;
/** What its business card in the Peppol Directory shows (besides the identity), or whether it has one. */
const CARD_FIELDS = ['name', 'country', 'directory'] as const;

const companyParams = z.object({ id: idParam('company', 'com_0mhx3k2a1bQ8sV7yT2nR4kLp') });
const fieldErrors = ['invalid_country', 'invalid_peppol_id'] as const;

const migrationKeySchema = z
  .object({
    migration_key: z.string().openapi({
      description:
        'Give it to the new provider; it is shown once. Valid once, until the new provider’s SMP has used it or a new key is asked for',
    }),
    participant_id: z.string().openapi({ description: 'The Peppol participant it moves', example: '0208:0123456749' }),
    status: z.literal('preparing').openapi({
      description:
        'The key is being given to the SML; `peppol_migration.outgoing.status` on the company turns `prepared` when the SML has it (then the new provider can use it), or `failed` with why',
    }),
    requested_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('MigrationKey');

const isLive = async (store: Store, companyId: string) => (await liveCompanyIds(store, [companyId])).has(companyId);

/** The migration key is not a company field: kept sealed apart from the others. */
async function supplied(deps: CompanyRouteDependencies, actor: Actor, company: Company, key: string | undefined) {
  if (key !== undefined) await supplyMigrationKey(deps.store, deps.secretBox, actor, company, key);
}

type CompanyRouteDependencies = ProvisioningDependencies & { secretBox: SecretBox };

export function companyRoutes(routes: RouteTable, deps: CompanyRouteDependencies): void {
  createCompanyRoute(routes, deps);
  listCompaniesRoute(routes, deps);
  getCompanyRoute(routes, deps);
  updateCompanyRoute(routes, deps);
  createMigrationKeyRoute(routes, deps);
  deleteCompanyRoute(routes, deps);
}

function createCompanyRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/companies',
    operationId: 'createCompany',
    summary: "Create a company in the caller's workspace (owner or admin)",
    description:
      'In a workspace whose KYC is approved, the company is provisioned with the live provider at once; if the provider does not take it, it is created anyway with `is_live: false` and provisioning is retried.',
    tags: ['Companies'],
    body: createBody,
    responses: {
      201: {
        description: 'The company, with the caller’s role',
        schema: companySchema.extend({ role }).omit({ updated_at: true }).openapi('CreatedCompany'),
      },
    },
    errors: [...fieldErrors, 'insufficient_role', 'workspace_not_found'],
    handler: async ({ auth, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, auth.workspaceId);
      requireRole(callerRole, ['owner', 'admin'], 'create companies');
      const { migration_key: migrationKey, ...fields } = body;
      const company = await createCompany(store, auth.actor, auth.workspaceId, fields);
      await supplied(deps, auth.actor, company, migrationKey);
      const { updated_at: _updatedAt, ...created } = companyView(
        (await findCompany(store, company._id)) ?? company,
        await provisionOnCreate(deps, company),
      );
      return { status: 201, body: { ...created, role: callerRole } };
    },
  });
}

function listCompaniesRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/companies',
    operationId: 'listCompanies',
    summary: "Every company of the caller's workspace, newest first",
    description: 'A key limited to one company lists that company only.',
    tags: ['Companies'],
    limitedKeys: true,
    responses: {
      200: {
        description: 'Companies (summary)',
        schema: z.object({ data: z.array(companySummarySchema) }).openapi('CompanyList'),
      },
    },
    errors: ['workspace_not_found'],
    handler: async ({ auth }) => {
      await requireMembership(store, auth, auth.workspaceId);
      const companies = await listCompanies(store, auth.workspaceId, auth.companyId);
      const live = await liveCompanyIds(
        store,
        companies.map((company) => company._id),
      );
      return {
        status: 200,
        body: { data: companies.map((company) => companySummary(company, live.has(company._id))) },
      };
    },
  });
}

function getCompanyRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/companies/{id}',
    operationId: 'getCompany',
    summary: 'A company of a workspace the caller belongs to',
    tags: ['Companies'],
    limitedKeys: true,
    params: companyParams,
    responses: { 200: { description: 'The company', schema: companySchema } },
    errors: ['company_not_found'],
    handler: async ({ auth, params }) => {
      const { company } = await requireCompany(store, auth, params.id);
      return { status: 200, body: companyView(company, await isLive(store, company._id)) };
    },
  });
}

function updateCompanyRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'patch',
    path: '/v1/companies/{id}',
    operationId: 'updateCompany',
    summary: 'Change fields of a company (owner or admin)',
    description:
      'A live company’s new `peppol_id` is pushed to the live provider first; if the provider does not take it, the answer is 502 `provider_update_failed` and nothing changes. ' +
      'A live company’s new `peppol_id` is registered on Peppol only when it is proven to be the company’s own (see `participant_review` on the company): the id its KYC review verified, ' +
      'or an id whose scheme carries the verified `company_registration_id` or `tax_id`. Any other id, and a changed `name`, `company_registration_id` or `tax_id`, is held for an operator’s review ' +
      '(`receiving.status` `awaiting_review`, event `company.receiving_awaiting_review`) and registered only once approved. Until then the company does not send live documents ' +
      '(409 `sender_not_verified`), and its Peppol Directory card keeps the verified name and numbers.',
    tags: ['Companies'],
    limitedKeys: true,
    params: companyParams,
    body: updateBody,
    responses: { 200: { description: 'The company', schema: companySchema } },
    errors: [...fieldErrors, 'no_fields_to_update', 'insufficient_role', 'company_not_found', 'provider_update_failed'],
    handler: async ({ auth, params, body }) => {
      const { company, role: callerRole } = await requireCompany(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'update companies');
      requireSomeField(body, updateBody);
      if (body.peppol_id !== undefined) await pushParticipantChange(deps, company._id, body.peppol_id);
      const { migration_key: migrationKey, ...changes } = body;
      await supplied(deps, auth.actor, company, migrationKey);
      const updated =
        Object.keys(changes).length > 0
          ? await updateCompany(store, auth.actor, company, changes)
          : await findCompany(store, company._id);
      if (!updated) throw companyNotFound(params.id);
      const changed = (fields: readonly (keyof typeof body & keyof typeof company)[]) =>
        fields.some((field) => body[field] !== undefined && (body[field] ?? null) !== (company[field] ?? null));
      // What proves its participant id changed: its receiving workflow registers it, or has an operator review it first;
      // what the business card of a company that receives shows changed: the workflow has the Directory read it again.
      if (migrationKey !== undefined || changed(IDENTITY_FIELDS) || (updated.receiving && changed(CARD_FIELDS)))
        await changedForReceiving(deps, updated);
      return { status: 200, body: companyView(updated, await isLive(store, updated._id)) };
    },
  });
}

function createMigrationKeyRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/companies/{id}/receiving/migration-key',
    operationId: 'createMigrationKey',
    summary: 'A migration key to move the company’s Peppol participant to another provider (owner or admin)',
    description:
      'For a company registered as a Peppol receiver here: a new SMP migration key (SML 1.3.0), which our access point gives to the SML (PrepareToMigrate). Hand it to the new provider: its SMP presents it to the SML ' +
      '(Migrate), which moves the participant to it, so documents sent to the company’s `peppol_id` reach the new provider from then on. Until then nothing changes here. ' +
      'The key is shown once and kept sealed only until the SML has it; asking again replaces it. Audited (`company.migration_key_issued`, without the key). ' +
      'Not registered here (see `receiving.status`): 409 `receiver_not_registered`.',
    tags: ['Companies'],
    params: companyParams,
    responses: { 201: { description: 'The key, being given to the SML', schema: migrationKeySchema } },
    errors: ['insufficient_role', 'company_not_found', 'receiver_not_registered'],
    handler: async ({ auth, params }) => {
      const { company, role: callerRole } = await requireCompany(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'issue migration keys');
      const issued = await issueMigrationKey(store, deps.secretBox, auth.actor, company);
      await changedForReceiving(deps, company);
      return {
        status: 201,
        body: {
          migration_key: issued.key,
          participant_id: issued.participant,
          status: 'preparing' as const,
          requested_at: issued.requestedAt.toISOString(),
        },
      };
    },
  });
}

function deleteCompanyRoute(routes: RouteTable, deps: CompanyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'delete',
    path: '/v1/companies/{id}',
    operationId: 'deleteCompany',
    summary: 'Delete a company (owner or admin)',
    description:
      'The company is gone for everyone from then on; its documents are kept for the record (and still delivered if queued).',
    tags: ['Companies'],
    params: companyParams,
    responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.literal(true), id: z.string() }) } },
    errors: ['insufficient_role', 'company_not_found'],
    handler: async ({ auth, params }) => {
      const { company, role: callerRole } = await requireCompany(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'delete companies');
      if (!(await deleteCompany(store, auth.actor, company))) throw companyNotFound(params.id);
      await changedForReceiving(deps, company);
      return { status: 200, body: { deleted: true, id: params.id } };
    },
  });
}
