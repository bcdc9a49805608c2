/**
 * The task queues: one per resource whose capacity a worker guards with its slots, so work that waits on one
 * resource never holds the slots another needs (a validator busy with a 1,000-line PDF does not keep an AS4 send
 * or a webhook from going). Every name derives from one base queue (`einvoice`; a test's own worker has its own),
 * and each workflow sends its activities to the queues of its own base. Pure: safe to import from workflow code.
 */
const RESOURCES = {
  workflows:
    "every workflow except the webhook endpoints' own, their local activities (database moves), and the activities that only write the database or ask our own registration services",
  validation:
    'the official validator and renderer: validation before sending, the PDFs, replies validated before they go',
  as4: "our access point's sending: documents, Invoice Responses, Message Level Statuses and the monthly reports",
  email: 'the SMTP server: sandbox deliveries',
  webhooks: "clients' webhook endpoints: a workflow per endpoint and its attempts",
  housekeeping: 'the scheduled chores: cleanups and the reconcilers',
} as const;

export type Resource = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as Resource[];

/** The resources whose queues carry activities a workflow schedules (the others' work is workflow tasks). */
export type ActivityResource = Exclude<Resource, 'workflows' | 'webhooks'>;

/** The queue of `resource` beside `base`: the base itself for the workflows, `<base>-<resource>` for the others. */
export function taskQueueOf(resource: Resource, base: string): string {
  return resource === 'workflows' ? base : `${base}-${resource}`;
}
