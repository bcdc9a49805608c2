import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { PEPPOL_VALIDATOR, pruneUnused } from '../../stack/tools';

describe('the per-machine tool cache', () => {
  it('when a new build is made, then other builds of that tool unused for 30 days are removed, and recent ones and other tools kept', async () => {
    const toolsDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-tools-test-'));
    try {
      const longAgo = new Date(Date.now() - 40 * 24 * 3_600_000);
      for (const [name, time] of [
        ['peppol-validator-1.0.0-old', longAgo],
        ['peppol-validator-1.0.0-recent', new Date()],
        ['ferretdb-v1.24.2-old', longAgo],
        [`peppol-validator-${PEPPOL_VALIDATOR.version}`, longAgo],
      ] as const) {
        await mkdir(path.join(toolsDir, name));
        await utimes(path.join(toolsDir, name), time, time);
      }
      const lines: string[] = [];
      await pruneUnused(toolsDir, PEPPOL_VALIDATOR, (line) => lines.push(line));
      expect((await readdir(toolsDir)).sort()).toEqual(
        [
          'ferretdb-v1.24.2-old',
          'peppol-validator-1.0.0-recent',
          `peppol-validator-${PEPPOL_VALIDATOR.version}`,
        ].sort(),
      );
      expect(lines).toEqual([`removed ${path.join(toolsDir, 'peppol-validator-1.0.0-old')} (not started for 30 days)`]);
    } finally {
      await rm(toolsDir, { recursive: true, force: true });
    }
  });
});
