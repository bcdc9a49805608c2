import { createHash } from 'node:crypto';

import type { Environment } from './environment';
import { randomBase62 } from './ids';

/**
 * API keys: `ps_test_` (sandbox) or `ps_live_` (live) and 43 base62
 * characters (256 bits). Only the SHA-256 hash is stored; the prefix (first 15
 * characters and "...") names a key in listings and revocation.
 */

const TOKEN_LENGTH = 43;
export const API_KEY_PATTERN = /^ps_(test|live)_[0-9A-Za-z]{43}$/;

function keyPrefixFor(environment: Environment): 'ps_test_' | 'ps_live_' {
  return environment === 'live' ? 'ps_live_' : 'ps_test_';
}

export function generateApiKey(environment: Environment): string {
  return `${keyPrefixFor(environment)}${randomBase62(TOKEN_LENGTH)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayPrefix(key: string): string {
  return `${key.slice(0, 15)}...`;
}

export function environmentOfKey(key: string): Environment {
  return key.startsWith('ps_live_') ? 'live' : 'sandbox';
}
