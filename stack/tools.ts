import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { access, constants, cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { StackError } from './errors';
import { applyEinvoiceChanges, FERRETDB_BUILD_TAG } from './ferretdb/build';

/**
 * The embedded stack's two Go programs, built once per machine from the Go
 * module proxy at pinned releases and cached outside the checkout, keyed by
 * tool and version, so every clone on the machine reuses them.
 */


interface Tool {
  name: 'temporal' | 'ferretdb';
  version: string;
  /** Variable that points the service at an existing server instead. */
  alternative: string;
  build: (go: GoRunner, outputFile: string) => Promise<void>;
}

type GoRunner = (args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }) => Promise<string>;

export const TEMPORAL_CLI: Tool = {
  name: 'temporal',
  version: 'v1.5.1',
  alternative: 'TEMPORAL_ADDRESS',
  async build(go, outputFile) {
    // Later CLI releases carry a `replace` directive, which `go install pkg@version` refuses.
    const gobin = await mkdtemp(path.join(path.dirname(outputFile), 'bin-'));
    try {
      await go(['install', `github.com/temporalio/cli/cmd/temporal@${this.version}`], { env: { GOBIN: gobin } });
      await rename(path.join(gobin, 'temporal'), outputFile);
    } finally {
      await rm(gobin, { recursive: true, force: true });
    }
  },
};

/** The FerretDB release the einvoice build starts from. */
const FERRETDB_RELEASE = 'v1.24.2';

export const FERRETDB: Tool = {
  name: 'ferretdb',
  // Also the version FerretDB reports (it only requires the leading "v") and the cache directory's name,
  // so a binary of another release or build tag is never reused.
  version: `${FERRETDB_RELEASE}-${FERRETDB_BUILD_TAG}`,
  alternative: 'MONGODB_URI',
  async build(go, outputFile) {
    // `go install …@v1.24.2` cannot be used: the proxy refuses FerretDB's version
    // list (needed for its deprecation check), and the module ships without the
    // build/version/version.txt its own build task generates, so the binary
    // panics at start. So: download the pinned module (checksum-verified against
    // the Go sum database), add our changes (stack/ferretdb: indexed queries,
    // filter and sort pushdown, atomic updates) and that one generated file, and
    // build its command.
    const module = JSON.parse(await go(['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_RELEASE}`])) as { Dir?: string };
    if (!module.Dir) throw new StackError('go mod download did not report the module directory');
    const source = await mkdtemp(path.join(path.dirname(outputFile), 'src-'));
    try {
      await cp(module.Dir, source, { recursive: true });
      await applyEinvoiceChanges(source);
      await writeFile(path.join(source, 'build', 'version', 'version.txt'), `${this.version}\n`);
      await go(['build', '-trimpath', '-o', outputFile, './cmd/ferretdb'], { cwd: source });
    } finally {
      await rm(source, { recursive: true, force: true });
    }
  },
};

export function toolBinaryPath(toolsDir: string, tool: Tool): string {
  return path.join(toolsDir, `${tool.name}-${tool.version}`, tool.name);
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the binary, building it first if this machine has not yet. */
export async function ensureTool(toolsDir: string, tool: Tool, log: (line: string) => void): Promise<string> {
  const binary = toolBinaryPath(toolsDir, tool);
  if (await isExecutable(binary)) return binary;

  const dir = path.dirname(binary);
  await mkdir(dir, { recursive: true });
  const buildLog = path.join(dir, 'build.log');
  const go = goRunner(buildLog);
  try {
    await go(['version']);
  } catch {
    throw new StackError(
      `${tool.name} ${tool.version} is not built on this machine yet and Go is not installed. ` +
        `Install Go (https://go.dev/dl/) and run \`npm run tools\`, or set ${tool.alternative} to use a running server instead.`,
    );
  }

  log(`building ${tool.name} ${tool.version} with Go into ${dir} (once per machine; this takes a few minutes)`);
  const started = Date.now();
  const heartbeat = setInterval(() => {
    log(`  … still building ${tool.name} (${Math.round((Date.now() - started) / 1000)} s; output in ${buildLog})`);
  }, 20_000);
  // Build into a scratch file and rename, so an interrupted build never leaves a broken binary behind.
  const scratch = path.join(dir, `${tool.name}.partial-${process.pid}`);
  try {
    await tool.build(go, scratch);
    await rename(scratch, binary);
  } catch (err) {
    throw new StackError(`building ${tool.name} ${tool.version} failed (see ${buildLog}): ${(err as Error).message}`);
  } finally {
    clearInterval(heartbeat);
    await rm(scratch, { force: true });
  }
  log(`built ${tool.name} ${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

/** Runs `go` with output appended to the build log; resolves to stdout. */
function goRunner(buildLog: string): GoRunner {
  return (args, options = {}) =>
    new Promise((resolve, reject) => {
      const logStream = createWriteStream(buildLog, { flags: 'a' });
      logStream.write(`$ go ${args.join(' ')}\n`);
      const child = spawn('go', args, {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        logStream.write(chunk);
      });
      child.stderr.pipe(logStream, { end: false });
      child.on('error', (err) => {
        logStream.end();
        reject(err);
      });
      child.on('close', (code) => {
        logStream.end();
        if (code === 0) resolve(stdout);
        else reject(new StackError(`go ${args[0]} exited with code ${code}`));
      });
    });
}
