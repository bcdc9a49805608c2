import type { Environment } from '../../domain/environment';
import { newId } from '../../domain/ids';
import type { SecretBox } from '../../domain/secret-box';
import { newWebhookSecret } from '../../domain/webhooks';
import type { Store } from '../../store';
import type { WebhookRow } from '../../store/webhooks';
import { recordAudit, type Actor } from '../audit';
import { RuleError } from '../errors';
import { checkTarget, type TargetPolicy } from './target';

/**
 * Webhooks as a workspace manages them: registration, changes, secret
 * rotation, deletion. Secrets are sealed before they are stored and handed
 * out in the clear once, at registration and at each rotation.
 */

/** How long a replaced secret keeps signing. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookFields {
  url: string;
  events: string[];
  enabled?: boolean | undefined;
  description?: string | null | undefined;
}

async function requireAllowedTarget(url: string, policy: TargetPolicy): Promise<void> {
  const check = await checkTarget(url, policy);
  if (!check.ok)
    throw new RuleError('webhook_url_not_allowed', `This URL cannot receive webhooks: ${check.reason}.`, {
      param: 'url',
    });
}

export async function createWebhook(
  store: Store,
  box: SecretBox,
  actor: Actor,
  scope: { workspaceId: string; environment: Environment },
  fields: WebhookFields,
  policy: TargetPolicy,
): Promise<{ webhook: WebhookRow; secret: string }> {
  await requireAllowedTarget(fields.url, policy);
  const now = new Date();
  const secret = newWebhookSecret();
  const webhook: WebhookRow = {
    _id: newId('webhook'),
    workspace_id: scope.workspaceId,
    environment: scope.environment,
    url: fields.url,
    events: fields.events,
    enabled: fields.enabled ?? true,
    description: fields.description ?? null,
    secrets: [{ sealed: box.seal(secret), created_at: now, expires_at: null }],
    revision: 1,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await store.webhooks.create(webhook);
  await recordAudit(store, actor, {
    action: 'webhook.created',
    workspaceId: scope.workspaceId,
    target: { type: 'webhook', id: webhook._id },
    details: { url: fields.url, events: fields.events, environment: scope.environment },
  });
  return { webhook, secret };
}

export async function listWebhooks(store: Store, workspaceId: string, environment: Environment): Promise<WebhookRow[]> {
  const rows = await store.webhooks.find({ workspace_id: workspaceId, environment }).sort({ _id: 1 }).lean();
  return rows.filter((webhook) => !webhook.deleted_at);
}

export async function findWebhook(store: Store, webhookId: string): Promise<WebhookRow | null> {
  const webhook = await store.webhooks.findById(webhookId).lean();
  return webhook && !webhook.deleted_at ? webhook : null;
}

/** Changes by compare-and-set on the revision: a change never undoes a concurrent one. Null when the webhook is gone. */
async function changeWebhook(
  store: Store,
  webhookId: string,
  change: (webhook: WebhookRow) => Partial<WebhookRow>,
): Promise<WebhookRow | null> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const current = await findWebhook(store, webhookId);
    if (!current) return null;
    const updated = await store.webhooks
      .findOneAndUpdate(
        { _id: webhookId, revision: current.revision, deleted_at: null },
        { $set: { ...change(current), revision: current.revision + 1, updated_at: new Date() } },
        { returnDocument: 'after' },
      )
      .lean();
    if (updated) return updated;
  }
  throw new Error(`webhook ${webhookId} kept changing; try again`);
}

export async function updateWebhook(
  store: Store,
  actor: Actor,
  webhook: WebhookRow,
  fields: Partial<WebhookFields>,
  policy: TargetPolicy,
) {
  if (fields.url !== undefined) await requireAllowedTarget(fields.url, policy);
  // Enabled again by its owner: the reason the service gave for disabling it no longer holds.
  const updated = await changeWebhook(store, webhook._id, () => ({
    ...fields,
    ...(fields.enabled === true && { disabled_reason: null }),
  }));
  if (updated) {
    await recordAudit(store, actor, {
      action: 'webhook.updated',
      workspaceId: webhook.workspace_id,
      target: { type: 'webhook', id: webhook._id },
      details: { fields: Object.keys(fields).sort() },
    });
  }
  return updated;
}

/**
 * A new secret, in the clear this once. The one it replaces keeps signing for
 * 24 hours; one older than that is dropped at once, so at most two are active.
 */
export async function rotateSecret(store: Store, box: SecretBox, actor: Actor, webhook: WebhookRow, now = new Date()) {
  const secret = newWebhookSecret();
  const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const updated = await changeWebhook(store, webhook._id, (current) => ({
    secrets: [
      { sealed: box.seal(secret), created_at: now, expires_at: null },
      ...current.secrets.slice(0, 1).map((previous) => ({ ...previous, expires_at: previousExpiresAt })),
    ],
  }));
  if (!updated) return null;
  await recordAudit(store, actor, {
    action: 'webhook.secret_rotated',
    workspaceId: webhook.workspace_id,
    target: { type: 'webhook', id: webhook._id },
  });
  return { webhook: updated, secret, previousExpiresAt };
}

export async function deleteWebhook(store: Store, actor: Actor, webhook: WebhookRow): Promise<boolean> {
  const deleted = await changeWebhook(store, webhook._id, () => ({ deleted_at: new Date(), enabled: false }));
  if (!deleted) return false;
  await recordAudit(store, actor, {
    action: 'webhook.deleted',
    workspaceId: webhook.workspace_id,
    target: { type: 'webhook', id: webhook._id },
  });
  return true;
}

/** The secrets that sign now, in the clear, newest first. */
export function activeSecrets(box: SecretBox, webhook: Pick<WebhookRow, 'secrets'>, now = new Date()): string[] {
  return webhook.secrets
    .filter((secret) => !secret.expires_at || secret.expires_at > now)
    .map((secret) => box.open(secret.sealed));
}
