import { rm } from 'node:fs/promises';

import type { EmbeddedStack } from '../stack/embedded-stack';

export default async function globalTeardown(): Promise<void> {
  const shared = (globalThis as { __EINVOICE_STACK__?: { stack: EmbeddedStack; dataDir: string } }).__EINVOICE_STACK__;
  if (!shared) return;
  await shared.stack.stop();
  await rm(shared.dataDir, { recursive: true, force: true });
}
