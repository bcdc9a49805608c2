import type { Client } from '@temporalio/client';

import { signalWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import { RECEIVING_CHANGED_SIGNAL, receivingWorkflowId, SEARCH_ATTRIBUTES } from '../../workflows/shared';
import { listCompanies } from '../companies';

/**
 * Tells the company's registration workflow that something its registration
 * depends on changed (it went live, was deleted, its Peppol id or its
 * workspace's suspension changed), starting it when none runs.
 */
export async function syncReceiving(temporal: Client, company: { _id: string; workspace_id: string }): Promise<void> {
  await signalWorkflow(temporal, 'syncReceivingWorkflow', RECEIVING_CHANGED_SIGNAL, {
    workflowId: receivingWorkflowId(company._id),
    input: { companyId: company._id },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.companyId, value: company._id },
      { key: SEARCH_ATTRIBUTES.workspaceId, value: company.workspace_id },
    ],
    staticSummary: `Peppol receiver registration of ${company._id}`,
  });
}

/** Every company of the workspace (a suspension or its end changes them all); how many were signalled. */
export async function syncWorkspaceReceiving(store: Store, temporal: Client, workspaceId: string): Promise<number> {
  const companies = await listCompanies(store, workspaceId, null);
  for (const company of companies) await syncReceiving(temporal, company);
  return companies.length;
}
