import { readdirSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { sourcesDigest } from '../digest';
import { StackError } from '../errors';
import { FERRETDB_EDITS, type SourceEdit } from './edits';

const OVERLAY_DIR = path.join(__dirname, 'overlay');

/** The FerretDB release the einvoice build starts from. */
export const FERRETDB_RELEASE = 'v1.24.2';

/** Runs `go` with these arguments (in cwd) and resolves to its standard output. */
type GoRunner = (args: string[], options?: { cwd?: string }) => Promise<string>;

/**
 * The einvoice build of FerretDB: the pinned release plus our own Go files
 * (./overlay, copied into the module) and a few anchored edits of FerretDB's
 * files (./edits.ts). The tag is part of the binary's version and of its cache
 * directory. It is derived from the content of those changes, so that any
 * change to them builds a new binary instead of reusing an older one.
 */
export const FERRETDB_BUILD_TAG = `einvoice.${changesDigest()}`;

function changesDigest(): string {
  const files = readdirSync(OVERLAY_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.go') && !file.endsWith('_test.go'))
    .sort();
  return sourcesDigest(JSON.stringify(FERRETDB_EDITS), OVERLAY_DIR, files, 10);
}

/**
 * Writes the einvoice FerretDB source tree into an empty directory: the pinned module, our changes and the one
 * generated file its own build task would add. `go install …@v1.24.2` cannot be used: the proxy refuses
 * FerretDB's version list (needed for its deprecation check), and the module ships without the
 * build/version/version.txt its build task generates, so the binary (and every test binary) panics at start.
 * The module is checksum-verified against the Go sum database by `go mod download`.
 */
export async function writeEinvoiceSource(go: GoRunner, sourceDir: string, version: string): Promise<void> {
  const module = JSON.parse(
    await go(['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_RELEASE}`]),
  ) as { Dir?: string };
  if (!module.Dir) throw new StackError('go mod download did not report the module directory');
  await cp(module.Dir, sourceDir, { recursive: true });
  await applyEinvoiceChanges(sourceDir);
  await writeFile(path.join(sourceDir, 'build', 'version', 'version.txt'), `${version}\n`);
}

/**
 * Applies the einvoice changes to a copy of the FerretDB module. The Go module
 * cache makes its files and directories read-only, and the copy keeps those
 * modes: they are made writable first, so that the copy can be changed and,
 * by users other than root, removed again.
 */
async function applyEinvoiceChanges(sourceDir: string): Promise<void> {
  await chmod(sourceDir, 0o755);
  for (const entry of await readdir(sourceDir, { recursive: true })) {
    const file = path.join(sourceDir, entry);
    await chmod(file, (await stat(file)).isDirectory() ? 0o755 : 0o644);
  }
  const overlayFiles = (await readdir(OVERLAY_DIR, { recursive: true })).filter((file) => file.endsWith('.go'));
  for (const file of overlayFiles) {
    const target = path.join(sourceDir, file);
    if (await exists(target))
      throw new StackError(`FerretDB overlay file ${file} would replace one of FerretDB's own files`);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(OVERLAY_DIR, file), target);
  }
  for (const edit of FERRETDB_EDITS) {
    const file = path.join(sourceDir, edit.file);
    await writeFile(file, applyEdit(await readFile(file, 'utf8'), edit));
  }
}

/** Replaces the edit's text, which must occur exactly once. */
function applyEdit(text: string, edit: SourceEdit): string {
  const count = text.split(edit.find).length - 1;
  if (count !== 1) {
    throw new StackError(
      `FerretDB edit of ${edit.file}: the text to replace occurs ${count} times instead of once ` +
        `(FerretDB changed? see stack/ferretdb/edits.ts):\n${edit.find}`,
    );
  }
  return text.replace(edit.find, () => edit.replace);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
