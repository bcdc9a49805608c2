/**
 * The live provider: who puts a verified workspace and its companies on the
 * Peppol network (the organisation, a tenant per company, its participant
 * registration). Every call is idempotent by its business key (workspace,
 * company), so a retried activity or a repeated request never makes a second
 * organisation or tenant. A refusal or an outage is thrown as ProviderError.
 *
 * Their documents are carried by our own access point (access-point/,
 * platform/peppol/access-point.ts), not through this interface.
 */

interface ProviderWorkspace {
  workspaceId: string;
  legalName: string;
  enterpriseNumber: string;
}

interface ProviderCompany {
  companyId: string;
  name: string;
  country: string;
  peppolId: string | null;
  taxId: string | null;
}

export interface LiveProvider {
  /** Registers the verified organisation behind a workspace. */
  onboardWorkspace(workspace: ProviderWorkspace): Promise<{ organisationId: string }>;
  /** Makes the company a tenant of the organisation, able to send and receive. */
  provisionCompany(organisationId: string, company: ProviderCompany): Promise<{ tenantId: string }>;
  /** Moves the tenant's Peppol registration to another participant id (null: none). */
  updateParticipant(tenantId: string, peppolId: string | null): Promise<void>;
}

export class ProviderError extends Error {
  override name = 'ProviderError';
}

/**
 * The embedded stack's provider refuses, every time, any value containing
 * this: a company whose name contains it is never provisioned, and a
 * participant id containing it (e.g. `0060:provider-refuses`) is never taken.
 * That is how the tests (and a curious developer) reach the failure paths.
 * @internal
 */
export const EMBEDDED_REFUSAL_MARKER = 'provider-refuses';

const refuses = (value: string | null) => value !== null && value.toLowerCase().includes(EMBEDDED_REFUSAL_MARKER);

/**
 * The stand-in of the embedded stack and the tests. It keeps nothing of its
 * own: its identifiers are derived from ours, which makes every call
 * idempotent; the service records what it answered (store/provider-tenants.ts).
 */
function embeddedLiveProvider(): LiveProvider {
  return {
    onboardWorkspace({ workspaceId }) {
      return Promise.resolve({ organisationId: `emb-org-${workspaceId}` });
    },

    provisionCompany(_organisationId, company) {
      if (refuses(company.name)) {
        return Promise.reject(
          new ProviderError(
            `the embedded provider refuses company ${company.companyId} (its name contains "${EMBEDDED_REFUSAL_MARKER}")`,
          ),
        );
      }
      return Promise.resolve({ tenantId: `emb-ten-${company.companyId}` });
    },

    updateParticipant(tenantId, peppolId) {
      if (refuses(peppolId))
        return Promise.reject(
          new ProviderError(`the embedded provider refuses participant id ${peppolId} for ${tenantId}`),
        );
      return Promise.resolve();
    },
  };
}

/** The provider this process talks to. */
export const liveProvider = (): LiveProvider => embeddedLiveProvider();
