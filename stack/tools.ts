import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { access, cp, mkdir, mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { sourcesDigest } from './digest';
import { StackError } from './errors';
import { FERRETDB_BUILD_TAG, FERRETDB_RELEASE, writeEinvoiceSource } from './ferretdb/build';

/**
 * The embedded stack's programs that do not come from npm: two Go programs
 * from the Go module proxy, and the official validator and the Peppol AS4
 * access point, Java programs built by Maven from Maven Central (and, for
 * tracing, the OpenTelemetry Java agent, fetched by Maven from there). Each is
 * built once per machine at a pinned release and cached outside the
 * checkout, keyed by tool and version, so every clone on the machine reuses it.
 */

interface Tool {
  name:
    | 'temporal'
    | 'temporal-server'
    | 'temporal-ui'
    | 'temporal-test-server'
    | 'ferretdb'
    | 'peppol-validator'
    | 'peppol-access-point'
    | 'peppol-oxalis'
    | 'opentelemetry-javaagent'
    | 'facturx-checker';
  version: string;
  /** File name of the built program in its cache directory. */
  file: string;
  /** The program that builds it, and what to install when it is missing. */
  builder: { command: 'go' | 'mvn'; probe: readonly string[]; install: string };
  /** Variable that points the service at an existing server instead. */
  alternative: string;
  build: (run: BuildRunner, outputFile: string) => Promise<void>;
}

/** Runs the tool's builder with these arguments; resolves to its standard output. `echo` shows that output as it comes too. */
type BuildRunner = (
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; echo?: boolean },
) => Promise<string>;

const GO = { command: 'go', probe: ['version'], install: 'Go (https://go.dev/dl/)' } as const;
const MAVEN = { command: 'mvn', probe: ['-v'], install: 'Java 17 and Maven' } as const;

/** A directory beside the output for one build, removed afterwards however the build ends. */
async function withScratchDir<T>(outputFile: string, prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(path.dirname(outputFile), prefix));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `go install`s the packages into a scratch GOBIN, then moves each binary it made where `placed` says, in that
 * order (the tool's own file last: its presence is what marks a build whole).
 */
async function goInstall(
  go: BuildRunner,
  outputFile: string,
  packages: string[],
  placed: Record<string, string>,
): Promise<void> {
  await withScratchDir(outputFile, 'bin-', async (gobin) => {
    await go(['install', ...packages], { env: { GOBIN: gobin } });
    for (const [binary, target] of Object.entries(placed)) await rename(path.join(gobin, binary), target);
  });
}

export const TEMPORAL_CLI: Tool = {
  name: 'temporal',
  version: 'v1.5.1',
  file: 'temporal',
  builder: GO,
  alternative: 'TEMPORAL_ADDRESS',
  async build(go, outputFile) {
    // Later CLI releases carry a `replace` directive, which `go install pkg@version` refuses.
    await goInstall(go, outputFile, [`github.com/temporalio/cli/cmd/temporal@${this.version}`], {
      temporal: outputFile,
    });
  },
};

/** The Temporal server release the CLI above embeds (its go.mod), and compose's temporalio/auto-setup image. */
const TEMPORAL_SERVER_RELEASE = 'v1.29.1';

/** The server's schema tool, built beside it: the server's build is whole only once both are there. */
export const TEMPORAL_SQL_TOOL_FILE = 'temporal-sql-tool';

/**
 * The Temporal server itself, for the production shape (STACK_SHAPE=production), and its SQL schema tool:
 * the same release line as the CLI's dev server.
 */
export const TEMPORAL_SERVER: Tool = {
  name: 'temporal-server',
  version: TEMPORAL_SERVER_RELEASE,
  file: 'temporal-server',
  builder: GO,
  alternative: 'TEMPORAL_ADDRESS',
  async build(go, outputFile) {
    await goInstall(
      go,
      outputFile,
      [`go.temporal.io/server/cmd/server@${this.version}`, `go.temporal.io/server/cmd/tools/sql@${this.version}`],
      {
        sql: path.join(path.dirname(outputFile), TEMPORAL_SQL_TOOL_FILE),
        server: outputFile,
      },
    );
  },
};

/** The Temporal Web UI server, the release the CLI embeds and compose's temporalio/ui image. */
export const TEMPORAL_UI: Tool = {
  name: 'temporal-ui',
  version: 'v2.42.1',
  file: 'temporal-ui-server',
  builder: GO,
  alternative: 'TEMPORAL_ADDRESS',
  async build(go, outputFile) {
    await goInstall(go, outputFile, [`github.com/temporalio/ui-server/v2/cmd/server@${this.version}`], {
      server: outputFile,
    });
  },
};

export const FERRETDB: Tool = {
  name: 'ferretdb',
  // Also the version FerretDB reports (it only requires the leading "v") and the cache directory's name,
  // so a binary of another release or build tag is never reused.
  version: `${FERRETDB_RELEASE}-${FERRETDB_BUILD_TAG}`,
  file: 'ferretdb',
  builder: GO,
  alternative: 'MONGODB_URI',
  async build(go, outputFile) {
    await withScratchDir(outputFile, 'src-', async (source) => {
      await writeEinvoiceSource(go, source, this.version);
      await go(['build', '-trimpath', '-o', outputFile, './cmd/ferretdb'], { cwd: source });
    });
  },
};

const TEMPORAL_TEST_SERVER_SOURCE = path.resolve(__dirname, '..', 'temporal-test-server');

/** Digest of a Maven program's pom and sources (a pom alone packs a published program): a changed program is a new version, never a stale jar. */
function mavenSourcesDigest(sourceDir: string): string {
  const sources = path.join(sourceDir, 'src');
  const files = existsSync(sources)
    ? readdirSync(sources, { recursive: true, encoding: 'utf8' })
        .filter((file) => statSync(path.join(sources, file)).isFile())
        .sort()
    : [];
  return sourcesDigest(readFileSync(path.join(sourceDir, 'pom.xml')), sources, files, 12);
}

/** Builds a Maven program's runnable jar (its pom's finalName) into outputFile. */
async function buildMavenJar(mvn: BuildRunner, sourceDir: string, jarName: string, outputFile: string): Promise<void> {
  // Built from a copy, so the checkout never holds Maven's target/ (nor anything it downloaded).
  await withScratchDir(outputFile, 'src-', async (source) => {
    await cp(path.join(sourceDir, 'pom.xml'), path.join(source, 'pom.xml'));
    if (existsSync(path.join(sourceDir, 'src')))
      await cp(path.join(sourceDir, 'src'), path.join(source, 'src'), { recursive: true });
    await mvn(['-q', '-B', 'package'], { cwd: source });
    await rename(path.join(source, 'target', jarName), outputFile);
  });
}

/**
 * A program of ours built by Maven into one runnable jar, `<name>.jar` (its pom's finalName), from a folder of the
 * checkout (path segments from the root). Its version is the release it packs plus its sources' digest.
 */
function mavenJar(name: Tool['name'], release: string, folder: string[], alternative: string): Tool {
  const source = path.resolve(__dirname, '..', ...folder);
  return {
    name,
    version: `${release}-${mavenSourcesDigest(source)}`,
    file: `${name}.jar`,
    builder: MAVEN,
    alternative,
    build: (mvn, outputFile) => buildMavenJar(mvn, source, `${name}.jar`, outputFile),
  };
}

/** The official Peppol validation artefacts behind a small HTTP service (phive). */
export const PEPPOL_VALIDATOR = mavenJar('peppol-validator', '1.0.0', ['validator'], 'VALIDATOR_URL');

/** The Peppol AS4 access point (our sender, and the local network's receiving stand-in; a phase4 program). */
export const PEPPOL_ACCESS_POINT = mavenJar('peppol-access-point', '1.0.0', ['access-point'], 'ACCESS_POINT_URL');

/**
 * Oxalis-AS4, an independent Peppol access point (Apache CXF and WSS4J), for the local network stand-in only: its
 * inbound server and command-line sender in one jar (oxalis/pom.xml).
 */
export const PEPPOL_OXALIS = mavenJar(
  'peppol-oxalis',
  '7.0.0',
  ['oxalis'],
  'PEPPOL_DNS_SERVER (a Peppol network of its own, without the local stand-in)',
);

/**
 * Mustangproject's Factur-X/ZUGFeRD validator (Maven Central: veraPDF for PDF/A, the Factur-X schemas and
 * schematrons for the embedded XML) behind a one-class command (test/tools/facturx-checker): the tests'
 * independent reader of the Factur-X the renderer makes. Only the tests use it.
 */
export const FACTURX_CHECKER = mavenJar(
  'facturx-checker',
  '2.16.3',
  ['test', 'tools', 'facturx-checker'],
  'nothing (the Factur-X tests need it)',
);

/**
 * Temporal's time-skipping test server (the Java SDK's, from Maven Central, packed into one jar by
 * temporal-test-server/pom.xml) behind a launcher the SDK's TestWorkflowEnvironment starts as an existing
 * program: the workflow tests run the real windows (days) on it in seconds. Only the tests use it.
 */
export const TEMPORAL_TEST_SERVER: Tool = {
  name: 'temporal-test-server',
  version: `1.31.0-${mavenSourcesDigest(TEMPORAL_TEST_SERVER_SOURCE)}`,
  file: 'temporal-test-server',
  builder: MAVEN,
  alternative: 'nothing (the time-skipping workflow tests need it)',
  async build(mvn, outputFile) {
    await buildMavenJar(
      mvn,
      TEMPORAL_TEST_SERVER_SOURCE,
      'temporal-test-server.jar',
      path.join(path.dirname(outputFile), 'temporal-test-server.jar'),
    );
    // The SDK runs the program with the port (and its own options) as arguments.
    await writeFile(outputFile, '#!/bin/sh\nexec java -Xss1m -jar "$(dirname "$0")/temporal-test-server.jar" "$@"\n', {
      mode: 0o755,
    });
  },
};

/**
 * The OpenTelemetry Java agent, which our access point runs with when traces are exported
 * (OTEL_EXPORTER_OTLP_ENDPOINT): Maven Central's release jar, nothing built.
 */
export const OPENTELEMETRY_JAVA_AGENT: Tool = {
  name: 'opentelemetry-javaagent',
  version: '2.31.1',
  file: 'opentelemetry-javaagent.jar',
  builder: MAVEN,
  // Without our access point to run, no agent is needed.
  alternative: 'ACCESS_POINT_URL',
  async build(mvn, outputFile) {
    await withScratchDir(outputFile, 'agent-', async (dir) => {
      await mvn([
        '-q',
        '-B',
        'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy',
        `-Dartifact=io.opentelemetry.javaagent:opentelemetry-javaagent:${this.version}`,
        `-DoutputDirectory=${dir}`,
      ]);
      await rename(path.join(dir, `opentelemetry-javaagent-${this.version}.jar`), outputFile);
    });
  },
};

/** @internal */
export function toolBinaryPath(toolsDir: string, tool: Tool): string {
  return path.join(toolsDir, `${tool.name}-${tool.version}`, tool.file);
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Returns the built program, building it first if this machine has not yet. */
export async function ensureTool(toolsDir: string, tool: Tool, log: (line: string) => void): Promise<string> {
  const binary = toolBinaryPath(toolsDir, tool);
  // Builds end with a rename, so a file that exists is a whole one.
  if (await exists(binary)) {
    await markUsed(binary);
    return binary;
  }
  await pruneUnused(toolsDir, tool, log);

  const dir = path.dirname(binary);
  await mkdir(dir, { recursive: true });
  const buildLog = path.join(dir, 'build.log');
  const run = commandRunner(tool.builder.command, buildLog);
  try {
    await run([...tool.builder.probe]);
  } catch {
    throw new StackError(
      `${tool.name} ${tool.version} is not built on this machine yet and \`${tool.builder.command}\` is not installed. ` +
        `Install ${tool.builder.install} and run \`npm run tools\`, or set ${tool.alternative} to use a running server instead.`,
    );
  }

  log(
    `building ${tool.name} ${tool.version} with ${tool.builder.command} into ${dir} (once per machine; this takes a few minutes)`,
  );
  const started = Date.now();
  const heartbeat = setInterval(() => {
    log(`  … still building ${tool.name} (${Math.round((Date.now() - started) / 1000)} s; output in ${buildLog})`);
  }, 20_000);
  // Build into a scratch file and rename, so an interrupted build never leaves a broken binary behind.
  const scratch = path.join(dir, `${tool.name}.partial-${process.pid}`);
  try {
    await tool.build(run, scratch);
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

/** Other builds of a tool that no stack on this machine has started for this long are removed. */
const UNUSED_BUILD_DAYS = 30;

/** Each start marks its build as used (the directory's time), so only builds nobody starts any more age. */
async function markUsed(binary: string): Promise<void> {
  const now = new Date();
  await utimes(path.dirname(binary), now, now).catch(() => undefined);
}

/**
 * Before a new build, removes the tool's other builds unused for UNUSED_BUILD_DAYS
 * (each source change of the Java programs is a new version): the cache does not
 * grow without end, and a build another clone still starts is kept.
 * @internal
 */
export async function pruneUnused(toolsDir: string, tool: Tool, log: (line: string) => void): Promise<void> {
  const cutoff = Date.now() - UNUSED_BUILD_DAYS * 24 * 3_600_000;
  const entries = await readdir(toolsDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (
      !entry.isDirectory() ||
      !entry.name.startsWith(`${tool.name}-`) ||
      entry.name === `${tool.name}-${tool.version}`
    )
      continue;
    const dir = path.join(toolsDir, entry.name);
    if ((await stat(dir)).mtimeMs >= cutoff) continue;
    await rm(dir, { recursive: true, force: true });
    log(`removed ${dir} (not started for ${UNUSED_BUILD_DAYS} days)`);
  }
}

/**
 * Runs `command` with its output appended to `buildLog`, or without one, its standard error shown as it comes;
 * resolves to its standard output.
 */
export function commandRunner(command: string, buildLog?: string): BuildRunner {
  return (args, options = {}) =>
    new Promise((resolve, reject) => {
      const logStream = buildLog ? createWriteStream(buildLog, { flags: 'a' }) : undefined;
      logStream?.write(`$ ${command} ${args.join(' ')}\n`);
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', logStream ? 'pipe' : 'inherit'],
      });
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        logStream?.write(chunk);
        if (options.echo) process.stdout.write(chunk);
      });
      if (logStream) child.stderr?.pipe(logStream, { end: false });
      child.on('error', (err) => {
        logStream?.end();
        reject(err);
      });
      child.on('close', (code) => {
        logStream?.end();
        if (code === 0) resolve(stdout);
        else reject(new StackError(`${command} ${args[0]} exited with code ${code}`));
      });
    });
}
