import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { sharedStack } from './test-stack';

/** The ops CLI as an operator runs it, against the shared stack's database, with its KYC key. */
export const ops = (...args: string[]) => opsWith({}, ...args);

/** The same, with variables of its own (another database, other keys). */
export async function opsWith(
  variables: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { mongodbUri, temporalAddress, namespace, kycEncryptionKey } = sharedStack();
  const env = {
    ...process.env,
    MONGODB_URI: mongodbUri,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    KYC_ENCRYPTION_KEY: kycEncryptionKey,
    OPERATOR: 'test-operator',
    ...variables,
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.resolve(__dirname, '../../ops/main.ts'), ...args],
      { env },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
