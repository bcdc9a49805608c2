import { randomBytes, randomInt } from 'node:crypto';

import mongoose, { type Connection } from 'mongoose';

import { operatorActor, setAccountRateLimit, setAccountStatus } from '../../services/operator/workspaces';
import { createStore, type Store } from '../../store';
import { callApi, type ApiResponse } from './http';
import { sharedStack } from './test-stack';

/**
 * A client address of its own for each signup, so the per-IP signup limit
 * only bites where a test means it to. The API trusts X-Forwarded-For from
 * loopback, as it would from a proxy in front of it.
 */
export const fakeClientIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(6).toString('hex')}@example.com`;

export interface TestAccount {
  id: string;
  email: string;
  key: string;
  prefix: string;
  workspaceId: string;
}

/** Where a helper works: the shared stack's API and database unless a test runs a stack of its own. */
export interface StackAddress {
  apiUrl: string;
  mongodbUri: string;
}

export async function signUp(label = 'user', baseUrl?: string): Promise<TestAccount> {
  const email = uniqueEmail(label);
  const response = await callApi('/v1/signup', {
    ...(baseUrl && { baseUrl }),
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeClientIp() },
    body: JSON.stringify({ email, name: label }),
  });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
  return {
    id: response.body.id,
    email,
    key: response.body.api_key,
    prefix: response.body.prefix,
    workspaceId: response.body.workspace_id,
  };
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  host?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
}

/** An authenticated request with the given key. */
export function callAs(key: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  return callApi(path, {
    method: options.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${key}`,
      ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
      ...(options.host && { Host: options.host }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    ...(options.baseUrl && { baseUrl: options.baseUrl }),
  });
}

/** Operator-side access to the data, for settings that have no API (disabling an account, a support rate limit). */
export async function withStore<T>(
  use: (store: Store, db: Connection) => Promise<T>,
  mongodbUri = sharedStack().mongodbUri,
): Promise<T> {
  const db = await mongoose.createConnection(mongodbUri).asPromise();
  try {
    return await use(createStore(db), db);
  } finally {
    await db.close();
  }
}

/** What support does to an account (as the ops CLI does it): its keys carry the change from the next request on. */
export const setRateLimit = (accountId: string, perMinute: number) =>
  withStore((store) => setAccountRateLimit(store, operatorActor('test'), accountId, perMinute));
export const disableAccount = (accountId: string) =>
  withStore((store) => setAccountStatus(store, operatorActor('test'), accountId, 'disabled'));

/**
 * A team workspace owned by `owner`, with one fresh account per role given.
 * `ownerTeamKey` is an owner key whose home is the team workspace, for the
 * endpoints that act on "the caller's workspace" (companies).
 */
export async function teamWorkspace(owner: TestAccount, roles: ('owner' | 'admin' | 'member')[] = ['admin', 'member']) {
  const created = await callAs(owner.key, '/v1/workspaces', { method: 'POST', body: { name: 'Team' } });
  const workspaceId: string = created.body.id;
  const members: Partial<Record<'owner' | 'admin' | 'member', TestAccount>> = {};
  for (const role of roles) {
    const account = await signUp(role);
    const added = await callAs(owner.key, `/v1/workspaces/${workspaceId}/members`, {
      method: 'POST',
      body: { account_id: account.id, role },
    });
    if (added.status !== 201) throw new Error(`adding ${role} failed: ${added.text}`);
    members[role] = account;
  }
  const teamKey = await callAs(owner.key, '/v1/account/keys', {
    method: 'POST',
    body: { workspace_id: workspaceId, label: 'team' },
  });
  return { workspaceId, members, ownerTeamKey: teamKey.body.api_key as string };
}
