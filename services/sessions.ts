import { createTransport } from 'nodemailer';

import type { Environment } from '../domain/environment';
import { hashToken, isToken, newToken, SESSION_TTL_MS, SIGN_IN_LINK_TTL_MS, tokenMatches } from '../domain/sessions';
import type { Store } from '../store';
import { listWorkspaces, membershipOf, type WorkspaceWithRole } from './workspaces';

/**
 * The web app's sign-in (domain/sessions.ts): a link for an account's
 * address, spent once by one conditional update, opens a session of that
 * environment; a session names the workspace it acts in, or acts in its
 * account's first.
 */

/** A link for the account of this address, when there is an active one; null otherwise (the caller answers the same either way). */
export async function issueSignInLink(
  store: Store,
  email: string,
  environment: Environment,
): Promise<{ token: string; email: string } | null> {
  const account = await store.accounts.findOne({ email_key: email.toLowerCase() }).lean();
  if (!account || account.status !== 'active') return null;
  const token = newToken();
  const now = new Date();
  await store.signInLinks.create({
    _id: hashToken(token),
    account_id: account._id,
    environment,
    created_at: now,
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS),
  });
  return { token, email: account.email };
}

export interface NewSession {
  /** The cookie's value. */
  token: string;
  csrfToken: string;
  accountId: string;
  expiresAt: Date;
}

/** Spends a link (only the first caller gets it) and opens a session; null for a link that is unknown, spent, expired or of the other environment. */
export async function redeemSignInLink(
  store: Store,
  token: string,
  environment: Environment,
): Promise<NewSession | null> {
  if (!isToken(token)) return null;
  const now = new Date();
  const link = await store.signInLinks
    .findOneAndUpdate({ _id: hashToken(token), used_at: null }, { $set: { used_at: now } })
    .lean();
  if (!link || link.expires_at <= now || link.environment !== environment) return null;
  const session: NewSession = {
    token: newToken(),
    csrfToken: newToken(),
    accountId: link.account_id,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  };
  await store.sessions.create({
    _id: hashToken(session.token),
    account_id: link.account_id,
    environment,
    csrf_hash: hashToken(session.csrfToken),
    created_at: now,
    expires_at: session.expiresAt,
  });
  return session;
}

export interface OpenSession {
  hash: string;
  accountId: string;
  /** Whether the CSRF token presented is the session's. */
  csrfMatches: (presented: string | undefined) => boolean;
}

/** The session a cookie holds, while it lasts, in the environment it was opened in. */
export async function findSession(
  store: Store,
  token: string | undefined,
  environment: Environment,
): Promise<OpenSession | null> {
  if (!isToken(token)) return null;
  const hash = hashToken(token);
  const session = await store.sessions.findById(hash).lean();
  if (!session || session.ended_at || session.expires_at <= new Date() || session.environment !== environment)
    return null;
  return {
    hash,
    accountId: session.account_id,
    csrfMatches: (presented) => tokenMatches(presented, session.csrf_hash),
  };
}

export async function endSession(store: Store, hash: string): Promise<void> {
  await store.sessions.updateOne({ _id: hash, ended_at: null }, { $set: { ended_at: new Date() } });
}

/** The workspace a session acts in: the one it names, when its account is a member; else its account's first. */
export async function sessionWorkspace(
  store: Store,
  accountId: string,
  named: string | undefined,
): Promise<WorkspaceWithRole | null> {
  if (named !== undefined) return membershipOf(store, named, accountId);
  const [first] = await listWorkspaces(store, accountId);
  return first ?? null;
}

/** The email with the link; the token travels in the fragment, which no server, log or Referer sees. */
export async function sendSignInEmail(
  deps: { smtpUrl: string; mailFrom: string },
  to: string,
  appUrl: string,
  token: string,
): Promise<void> {
  const link = `${appUrl}/sign-in#token=${token}`;
  await createTransport(deps.smtpUrl).sendMail({
    from: deps.mailFrom,
    to,
    subject: 'Your sign-in link',
    text: [
      'Open this link to sign in to the e-invoice app:',
      '',
      link,
      '',
      `It works once, within ${SIGN_IN_LINK_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this email: nobody can sign in without it.`,
    ].join('\n'),
  });
}

/** How long an expired link or session is kept: long enough to tell "expired" from "unknown" in the logs of a day. */
const KEPT_AFTER_END_MS = 86_400_000;

/** Deletes links and sessions that stopped working a day ago (FerretDB has no TTL indexes); returns how many. */
export async function deleteEndedSignIns(store: Store, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEPT_AFTER_END_MS);
  const [links, sessions] = await Promise.all([
    store.signInLinks.deleteMany({ expires_at: { $lt: before } }),
    store.sessions.deleteMany({ expires_at: { $lt: before } }),
  ]);
  return links.deletedCount + sessions.deletedCount;
}
