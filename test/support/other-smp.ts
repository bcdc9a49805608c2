import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { loadStackConfig } from '../../stack/config';
import { ManagedProcess } from '../../stack/managed-process';
import { ACCESS_POINT_HEAP, accessPointEnvironment, localPkiFiles } from '../../stack/peppol-access-points';
import { freePort } from '../../stack/ports';
import { ensureTool, PEPPOL_ACCESS_POINT } from '../../stack/tools';
import { until } from './until';
import { sharedStack } from './test-stack';

/**
 * Another provider's SMP, as the SML sees it: an access point of its own
 * (the access-point jar, sender role) whose SML client speaks for an SMP ID
 * and certificate other than ours, against the shared stack's stand-in SML
 * unless told another. Its control API registers, unregisters and migrates
 * participants (`/sml/participants/…`) as that SMP.
 */
export interface OtherSmp {
  /** Its access point's control API. */
  url: string;
  smpUrl: string;
  close(): Promise<void>;
}

export async function startOtherSmp(options: {
  smpId: string;
  keystore: string;
  smlUrl?: string;
  smpUrl?: string;
}): Promise<OtherSmp> {
  const stack = sharedStack();
  const pki = localPkiFiles(path.join(stack.dataDir, 'peppol-pki'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'other-smp-'));
  const port = await freePort();
  const smpUrl = options.smpUrl ?? `http://127.0.0.1:9/${options.smpId.toLowerCase()}`;
  const jar = await ensureTool(loadStackConfig().TOOLS_DIR, PEPPOL_ACCESS_POINT, () => undefined);
  const process = new ManagedProcess(
    `access-point-${options.smpId}`,
    'java',
    [ACCESS_POINT_HEAP, '-jar', jar, 'sender'],
    {
      env: {
        ...globalThis.process.env,
        ...accessPointEnvironment({
          port,
          keystore: pki.senderKeystore,
          truststore: pki.truststore,
          dataDir: path.join(work, 'access-point'),
          sml: { url: options.smlUrl ?? stack.peppol.sml, smpId: options.smpId, smpUrl, keystore: options.keystore },
        }),
      },
      logFile: path.join(work, 'access-point.log'),
    },
  );
  process.start();
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await process.close();
    await rm(work, { recursive: true, force: true });
  };
  try {
    await until(
      'the other SMP’s access point',
      async () => {
        if (!process.running) throw new Error(`it did not start:\n${process.tail()}`);
        return fetch(`${url}/health`).then(
          (response) => response.ok,
          () => false,
        );
      },
      (ready) => ready,
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { url, smpUrl, close };
}
