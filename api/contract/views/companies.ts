import type { Company } from '../../../services/companies';
import { documentTypesOf } from '../../../services/receiving/registration';
import { z } from '../openapi';

export const companySchema = z
  .object({
    id: z.string().openapi({ example: 'com_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    name: z.string(),
    workspace_id: z.string(),
    is_live: z.boolean().openapi({
      description:
        'True once the company has a provider tenant (live sending): every company of a workspace whose KYC is approved is provisioned; one created later is provisioned on creation, and while the provider does not take it, it stays false and provisioning is retried',
    }),
    company_registration_id: z.string().nullable(),
    tax_id: z.string().nullable(),
    email: z.string().nullable(),
    country: z.string(),
    address: z
      .object({ street: z.string().nullable(), city: z.string().nullable(), postal_code: z.string().nullable() })
      .nullable(),
    iban: z.string().nullable(),
    peppol_id: z.string().nullable(),
    auto_acknowledge: z.boolean().openapi({
      description: 'Every received invoice and credit note is answered with an Invoice Response `AB` at once',
    }),
    receive_cii: z.boolean().openapi({
      description: 'Our SMP publishes the BIS Billing CII document type for it too (see `receiving.document_types`)',
    }),
    receiving: z
      .object({
        status: z.enum(['registering', 'registered', 'unregistered', 'awaiting_review', 'failed']).openapi({
          description:
            '`registered`: findable on Peppol (our SMP and the SML) and receiving; `registering` while the SML is asked; `unregistered` after deletion, suspension or without a peppol_id; ' +
            '`awaiting_review`: the peppol_id is not proven to be this company’s (see `participant_review`), so nothing is registered until an operator has reviewed it; `failed` with `error_message`',
        }),
        participant_id: z
          .string()
          .nullable()
          .openapi({ description: 'The participant registered (or being registered)' }),
        document_types: z
          .array(z.string())
          .openapi({ description: 'Peppol document type ids our SMP publishes for it' }),
        error_message: z.string().nullable(),
        updated_at: z.string().openapi({ format: 'date-time' }),
      })
      .nullable()
      .openapi({
        description: 'Where its registration as a Peppol receiver stands; null until the company first went live',
      }),
    peppol_migration: z
      .object({
        incoming_key_supplied_at: z.string().nullable().openapi({
          format: 'date-time',
          description:
            'When a migration key from the previous provider was given (`migration_key`), while it waits to be used by the registration; null once the SML took it, or when none was given',
        }),
        outgoing: z
          .object({
            status: z.enum(['preparing', 'prepared', 'failed']).openapi({
              description:
                '`preparing`: the key is being given to the SML; `prepared`: the SML has it, the new provider can use it; `failed` with `error_message`: the SML refused it or did not answer, ask for a new key',
            }),
            participant_id: z.string(),
            requested_at: z.string().openapi({ format: 'date-time' }),
            prepared_at: z.string().nullable().openapi({ format: 'date-time' }),
            error_message: z.string().nullable(),
          })
          .nullable()
          .openapi({
            description:
              'The last migration key asked for to move to another provider (`POST /v1/companies/{id}/receiving/migration-key`); the key itself is shown only once',
          }),
      })
      .openapi({
        description: 'Moving the Peppol participant between providers with an SMP migration key, in either direction',
      }),
    directory: z
      .boolean()
      .openapi({ description: 'Listed in the Peppol Directory while registered as a receiver (false: kept out)' }),
    directory_listing: z
      .object({
        status: z.enum(['published', 'withdrawn', 'not_listed', 'skipped', 'failed']).openapi({
          description:
            '`published`: the Peppol Directory was told to read the current business card from our SMP; `withdrawn`: told to drop it (the company opted out, or is no longer registered); ' +
            '`not_listed`: opted out, nothing was listed; `skipped`: this service publishes to no Directory; `failed` with `error_message`: the Directory refused it or did not answer for about half an hour (receiving is not affected)',
        }),
        participant_id: z.string().nullable(),
        error_message: z.string().nullable(),
        updated_at: z.string().openapi({ format: 'date-time' }),
      })
      .nullable()
      .openapi({
        description:
          'Where its business card stands in the Peppol Directory; null until it was first registered as a receiver',
      }),
    participant_review: z
      .object({
        status: z.enum(['pending', 'approved', 'rejected']),
        peppol_id: z.string().nullable().openapi({ description: 'The participant id the review is about' }),
        reason: z
          .string()
          .nullable()
          .openapi({ description: 'Why it is reviewed (`pending`), or why the review refused it (`rejected`)' }),
        requested_at: z.string().openapi({ format: 'date-time' }),
        decided_at: z.string().nullable().openapi({ format: 'date-time' }),
      })
      .nullable()
      .openapi({
        description:
          'A live company receives what is sent to its `peppol_id`, so the id must be proven to be its own: it is when it is the id its KYC review verified, or when its scheme carries a ' +
          'business register or VAT number (0208, 9925, 0106, 0007, 0192, 9930 and the other national VAT schemes, …) and that number is the verified `company_registration_id` or `tax_id`. ' +
          'Any other id, and any change of `company_registration_id` or `tax_id` after verification, is reviewed by an operator before anything is registered. Null when no review was ever needed',
      }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Company');

export const companySummarySchema = companySchema
  .pick({ id: true, name: true, tax_id: true, country: true, is_live: true, workspace_id: true, created_at: true })
  .openapi('CompanySummary');

/** `isLive`: the company has a provider tenant (services/provisioning.ts). */
export function companyView(company: Company, isLive: boolean): z.infer<typeof companySchema> {
  return {
    id: company._id,
    name: company.name,
    workspace_id: company.workspace_id,
    is_live: isLive,
    company_registration_id: company.company_registration_id ?? null,
    tax_id: company.tax_id ?? null,
    email: company.email ?? null,
    country: company.country,
    address: company.address
      ? {
          street: company.address.street ?? null,
          city: company.address.city ?? null,
          postal_code: company.address.postal_code ?? null,
        }
      : null,
    iban: company.iban ?? null,
    peppol_id: company.peppol_id ?? null,
    auto_acknowledge: company.auto_acknowledge ?? false,
    receive_cii: company.receive_cii ?? false,
    receiving: company.receiving
      ? {
          status: company.receiving.status,
          participant_id: company.receiving.participant_id ?? null,
          document_types: company.receiving.status === 'unregistered' ? [] : documentTypesOf(company),
          error_message: company.receiving.error_message ?? null,
          updated_at: company.receiving.updated_at.toISOString(),
        }
      : null,
    peppol_migration: {
      incoming_key_supplied_at: company.incoming_migration?.supplied_at.toISOString() ?? null,
      outgoing: company.outgoing_migration
        ? {
            status: company.outgoing_migration.status,
            participant_id: company.outgoing_migration.participant_id,
            requested_at: company.outgoing_migration.requested_at.toISOString(),
            prepared_at: company.outgoing_migration.prepared_at?.toISOString() ?? null,
            error_message: company.outgoing_migration.error_message ?? null,
          }
        : null,
    },
    directory: company.directory ?? true,
    directory_listing: company.directory_listing
      ? {
          status: company.directory_listing.status,
          participant_id: company.directory_listing.participant_id ?? null,
          error_message: company.directory_listing.error_message ?? null,
          updated_at: company.directory_listing.updated_at.toISOString(),
        }
      : null,
    participant_review: company.participant_review
      ? {
          status: company.participant_review.status,
          peppol_id: company.participant_review.identity.peppol_id ?? null,
          reason: company.participant_review.reason ?? null,
          requested_at: company.participant_review.requested_at.toISOString(),
          decided_at: company.participant_review.decided_at?.toISOString() ?? null,
        }
      : null,
    created_at: company.created_at.toISOString(),
    updated_at: company.updated_at.toISOString(),
  };
}

export function companySummary(company: Company, isLive: boolean): z.infer<typeof companySummarySchema> {
  const { id, name, tax_id, country, is_live, workspace_id, created_at } = companyView(company, isLive);
  return { id, name, tax_id, country, is_live, workspace_id, created_at };
}
