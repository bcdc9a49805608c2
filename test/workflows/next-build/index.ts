import { proxyActivities } from '@temporalio/workflow';

import { sendDocumentWorkflow as currentSendDocumentWorkflow } from '../../../workflows/send-document';
import type { SendDocumentInput } from '../../../workflows/shared';

/**
 * Build N+1 of the workflows for the versioning test: every workflow as it is, but the send workflow with a
 * step before all others, a change that breaks a workflow started on build N if it were replayed here.
 */
export * from '../../../workflows';

const { noteNextBuild } = proxyActivities<{ noteNextBuild(documentId: string): Promise<void> }>({
  startToCloseTimeout: '30 seconds',
});

export async function sendDocumentWorkflow(input: SendDocumentInput): ReturnType<typeof currentSendDocumentWorkflow> {
  await noteNextBuild(input.documentId);
  return currentSendDocumentWorkflow(input);
}
