import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { sharedStack } from './test-stack';

/** The ops CLI as an operator runs it, against the shared stack's database. */
export async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, MONGODB_URI: sharedStack().mongodbUri, TEMPORAL_ADDRESS: sharedStack().temporalAddress, TEMPORAL_NAMESPACE: sharedStack().namespace, OPERATOR: 'test-operator' };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../ops/main.ts'), ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
