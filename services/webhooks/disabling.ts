import { createTransport } from 'nodemailer';

import type { Logger } from '../../platform/logger';
import type { Store } from '../../store';
import { recordEvent } from '../events';
import { fanOutSoon, type FanOutDependencies } from './deliveries';

/**
 * A webhook whose endpoint has answered no delivery successfully for the disable period (WEBHOOK_DISABLE_AFTER)
 * is disabled by its endpoint's workflow: its pending deliveries go to the dead-letter queue (redeliverable once
 * it is mended and enabled again), a `webhook.disabled` event is recorded (in the feed, and to the workspace's
 * other webhooks), and the workspace's owners get an email saying so. Safe to repeat: the workflow's activity
 * may run again after any step.
 */

export interface DisablingDependencies {
  store: Store;
  logger: Logger;
  fanOut: FanOutDependencies;
  smtpUrl: string;
  mailFrom: string;
}

const days = (ms: number) => Math.round((ms / 86_400_000) * 10) / 10;

const disabledReason = (failingSince: Date, disableAfterMs: number) =>
  `Its endpoint answered no delivery successfully from ${failingSince.toISOString()} on; disabled after ${days(disableAfterMs)} days of failures. Mend it, enable the webhook again and redeliver the failed deliveries.`;

/** True when this call (or an earlier try of it) disabled the webhook; false when its owner disabled or deleted it first. */
export async function disableFailingWebhook(
  deps: DisablingDependencies,
  webhookId: string,
  failingSince: Date,
  disableAfterMs: number,
): Promise<boolean> {
  const { store } = deps;
  const reason = disabledReason(failingSince, disableAfterMs);
  const now = new Date();
  const webhook =
    (await store.webhooks
      .findOneAndUpdate(
        { _id: webhookId, enabled: true, deleted_at: null },
        { $set: { enabled: false, disabled_reason: reason, updated_at: now }, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      )
      .lean()) ??
    (await store.webhooks
      .findOne({ _id: webhookId, enabled: false, disabled_reason: reason, deleted_at: null })
      .lean());
  if (!webhook) return false;
  await store.deliveries.updateMany(
    { webhook_id: webhookId, status: 'pending' },
    { $set: { status: 'failed', next_attempt_at: null, updated_at: now } },
  );
  const { event, created } = await recordEvent(
    store,
    {
      dedupeKey: `webhook.disabled:${webhookId}:${failingSince.getTime()}`,
      type: 'webhook.disabled',
      workspaceId: webhook.workspace_id,
      environment: webhook.environment,
      companyId: null,
      documentId: null,
      data: { webhook_id: webhookId, url: webhook.url, failing_since: failingSince.toISOString(), reason },
    },
    deps.logger,
  );
  await fanOutSoon(deps.fanOut, event);
  if (created)
    await tellOwners(deps, webhook.workspace_id, {
      webhookId,
      url: webhook.url,
      environment: webhook.environment,
      reason,
    });
  deps.logger.warn({ webhookId, failingSince }, 'webhook disabled: its endpoint kept failing');
  return true;
}

/** The owners' email, best effort: the event in the feed says it too. */
async function tellOwners(
  deps: DisablingDependencies,
  workspaceId: string,
  disabled: { webhookId: string; url: string; environment: string; reason: string },
): Promise<void> {
  try {
    const workspace = await deps.store.workspaces.findById(workspaceId, { owner_ids: 1, name: 1 }).lean();
    const owners = workspace
      ? await deps.store.accounts.find({ _id: { $in: workspace.owner_ids } }, { email: 1 }).lean()
      : [];
    if (owners.length === 0) return;
    await createTransport(deps.smtpUrl).sendMail({
      from: deps.mailFrom,
      to: owners.map((owner) => owner.email),
      subject: `Webhook disabled: ${disabled.url} (${disabled.environment})`,
      text: [
        `Your webhook ${disabled.webhookId} (${disabled.url}, ${disabled.environment}) in workspace ${workspace?.name ?? workspaceId} has been disabled.`,
        '',
        disabled.reason,
        '',
        `Its pending deliveries are in the dead-letter queue: GET /v1/webhooks/${disabled.webhookId}/deliveries?status=failed lists them, and each can be redelivered once the webhook is enabled again (PATCH /v1/webhooks/${disabled.webhookId} with {"enabled": true}).`,
      ].join('\n'),
    });
  } catch (err) {
    deps.logger.error(
      { err, webhookId: disabled.webhookId },
      'could not email the owners that their webhook was disabled',
    );
  }
}
