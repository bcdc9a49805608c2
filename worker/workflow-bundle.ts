import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * Workflow code is bundled ahead of time, not at every worker start: `npm
 * run build` writes dist/workflow-bundle.js for the image, and the embedded
 * stack and the tests use a bundle cached by the hash of its sources.
 */

const projectRoot = path.resolve(__dirname, '..');
/** Every source a workflow bundle can contain. */
const SOURCE_DIRS = ['workflows', 'domain'];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : Promise.resolve([path.join(dir, entry.name)]),
    ),
  );
  return nested.flat().sort();
}

async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await Promise.all(SOURCE_DIRS.map((dir) => sourceFiles(path.join(projectRoot, dir))))).flat(),
    path.join(projectRoot, 'package-lock.json'),
  ];
  for (const file of files) hash.update(file).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The bundler's logger when its report is not wanted.
 * @internal
 */
export const SILENT_BUNDLER = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Bundles the workflows into `outputFile`; the bundler's own report is not printed. */
export async function writeWorkflowBundle(outputFile: string): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    // OpenTelemetry's, for workflows started with a trace (workflows/interceptors.ts).
    workflowInterceptorModules: [require.resolve('../workflows/interceptors')],
    logger: SILENT_BUNDLER,
  });
  await mkdir(path.dirname(outputFile), { recursive: true });
  const scratch = `${outputFile}.${process.pid}.partial`;
  await writeFile(scratch, code);
  await rename(scratch, outputFile);
}

/** The bundle of the current sources, built once per change of them. */
export async function cachedWorkflowBundle(
  cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'einvoice'),
): Promise<string> {
  const file = path.join(cacheDir, `workflow-bundle-${await sourcesHash()}.js`);
  const exists = await readFile(file).then(
    () => true,
    () => false,
  );
  if (!exists) await writeWorkflowBundle(file);
  return file;
}
