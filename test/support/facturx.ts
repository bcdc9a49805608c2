import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { loadStackConfig } from '../../stack/config';
import { ensureTool, FACTURX_CHECKER } from '../../stack/tools';

/**
 * Reading a Factur-X with programs that did not write it: poppler's `pdfdetach` for its embedded files,
 * and Mustangproject's validator (veraPDF for PDF/A-3, the Factur-X schemas and rules for the XML).
 */

const run = promisify(execFile);

/** Runs `use` with the PDF written to a file of its own, removed after. */
async function withPdfFile<T>(pdf: Buffer, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'facturx-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    return await use(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The names of the files embedded in the PDF, as `pdfdetach -list` reads them. */
export const embeddedFileNames = (pdf: Buffer): Promise<string[]> =>
  withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfdetach', ['-list', file], { encoding: 'utf8' });
    return stdout
      .split('\n')
      .slice(1)
      .map((line) => /^\s*\d+: (.*)$/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
  });

/** An embedded file's bytes, as `pdfdetach -save` writes them. */
export const embeddedFile = (pdf: Buffer, number: number): Promise<Buffer> =>
  withPdfFile(pdf, async (file, dir) => {
    const saved = path.join(dir, 'embedded');
    await run('pdfdetach', ['-save', String(number), '-o', saved, file]);
    return readFile(saved);
  });

/** What Mustangproject's validator says of a Factur-X: valid as a whole, and its XML report. */
export interface FacturXCheck {
  valid: boolean;
  report: string;
}

export async function checkFacturX(pdf: Buffer): Promise<FacturXCheck> {
  const jar = await ensureTool(loadStackConfig().TOOLS_DIR, FACTURX_CHECKER, () => undefined);
  return withPdfFile(pdf, (file) =>
    run('java', ['-jar', jar, file], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => ({ valid: true, report: stdout }),
      // Exit 1 is the checker's "not completely valid", with its report; anything else is a failure to check.
      (err: { code?: number; stdout?: string }) => {
        if (err.code !== 1 || !err.stdout) throw err;
        return { valid: false, report: err.stdout };
      },
    ),
  );
}
