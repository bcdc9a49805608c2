import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Conformance check with the official Peppol BIS Billing 3.0 / EN 16931 artefacts: a small Java CLI
 * (test/conformance/validator) runs the phive engine with phive-rules-peppol from Maven Central.
 * The jar is built on demand, so nothing downloaded ever lands in the repository.
 */

export interface Finding {
  rule: string;
  message: string;
  location: string;
}

export interface ValidationResult {
  name: string;
  valid: boolean;
  fatal: Finding[];
  warnings: Finding[];
}

const VALIDATOR_DIR = path.resolve(__dirname, '../conformance/validator');
const TARGET_DIR = path.join(VALIDATOR_DIR, 'target');
const JAR = path.join(TARGET_DIR, 'peppol-validator.jar');
// Inside target/ so it is git-ignored; mkdir is atomic, which makes it a cross-process lock.
const BUILD_LOCK = path.join(TARGET_DIR, '.build-lock');

// A cold ~/.m2 downloads a few dozen MB of artefacts; be generous.
const BUILD_TIMEOUT_MS = 10 * 60_000;
const VALIDATION_TIMEOUT_MS = 5 * 60_000;
const LOCK_POLL_MS = 1_000;

/**
 * Validates UBL documents in one JVM run (start-up and loading the schematrons dominate).
 * Results come back in the order of `documents`.
 */
export async function validateUbl(documents: { name: string; xml: string }[]): Promise<ValidationResult[]> {
  if (documents.length === 0) return [];
  await ensureJar();

  const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-validate-'));
  try {
    // Names are free text (and may repeat), so files are numbered and mapped back by path.
    const files = documents.map((_, index) => path.join(dir, `document-${index}.xml`));
    await Promise.all(documents.map((document, index) => writeFile(files[index]!, document.xml, 'utf8')));

    const { stdout, stderr } = await run('java', ['-jar', JAR, ...files], { timeout: VALIDATION_TIMEOUT_MS });
    const byFile = new Map<string, CliLine>();
    for (const line of stdout.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = parseCliLine(line);
      if (!parsed) throw new Error(`unexpected validator output line: ${line}\nstderr:\n${stderr}`);
      byFile.set(parsed.file, parsed);
    }

    return documents.map((document, index) => {
      const result = byFile.get(files[index]!);
      if (!result) throw new Error(`validator printed no result for "${document.name}"\nstderr:\n${stderr}`);
      const strip = ({ rule, message, location }: CliFinding): Finding => ({ rule, message, location });
      return {
        name: document.name,
        valid: result.valid,
        fatal: result.findings.filter((finding) => finding.severity === 'fatal').map(strip),
        warnings: result.findings.filter((finding) => finding.severity === 'warning').map(strip),
      };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface CliFinding extends Finding {
  severity: 'fatal' | 'warning';
}

interface CliLine {
  file: string;
  valid: boolean;
  findings: CliFinding[];
}

/** The CLI's JSON-lines protocol, checked rather than trusted: a silent shape change would pass every test. */
function parseCliLine(line: string): CliLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.file !== 'string' || typeof value.valid !== 'boolean') return undefined;
  if (!Array.isArray(value.findings)) return undefined;
  const findings: CliFinding[] = [];
  for (const item of value.findings as unknown[]) {
    if (
      !isRecord(item) ||
      typeof item.rule !== 'string' ||
      (item.severity !== 'fatal' && item.severity !== 'warning') ||
      typeof item.message !== 'string' ||
      typeof item.location !== 'string'
    ) {
      return undefined;
    }
    findings.push({ rule: item.rule, severity: item.severity, message: item.message, location: item.location });
  }
  return { file: value.file, valid: value.valid, findings };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Per process: once the jar is known to be fresh, later calls skip the file-system walk.
let jarReady: Promise<void> | undefined;

function ensureJar(): Promise<void> {
  jarReady ??= buildIfStale().catch((error: unknown) => {
    jarReady = undefined; // let a later call retry instead of replaying the failure
    throw error;
  });
  return jarReady;
}

/** Builds the jar unless it is newer than pom.xml and every source; jest workers serialise on a lock. */
async function buildIfStale(): Promise<void> {
  if (await jarIsFresh()) return;
  await mkdir(TARGET_DIR, { recursive: true });
  await acquireBuildLock();
  try {
    // Another worker may have built it while this one waited for the lock.
    if (await jarIsFresh()) return;
    await run('mvn', ['-q', '-B', 'package'], { cwd: VALIDATOR_DIR, timeout: BUILD_TIMEOUT_MS });
    if (!(await jarIsFresh())) throw new Error(`mvn package succeeded but ${JAR} is missing or stale`);
  } finally {
    await rm(BUILD_LOCK, { recursive: true, force: true });
  }
}

async function acquireBuildLock(): Promise<void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      await mkdir(BUILD_LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A lock older than any build could take was left by a killed process: break it.
    const lockAge = await stat(BUILD_LOCK).then(
      (lock) => Date.now() - lock.mtimeMs,
      () => 0, // released between mkdir and stat: just retry
    );
    if (lockAge > BUILD_TIMEOUT_MS) {
      await rm(BUILD_LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the validator build lock ${BUILD_LOCK}`);
    await sleep(LOCK_POLL_MS);
  }
}

async function jarIsFresh(): Promise<boolean> {
  const jar = await stat(JAR).catch(() => undefined);
  if (!jar) return false;
  const inputs = [path.join(VALIDATOR_DIR, 'pom.xml'), ...(await listFiles(path.join(VALIDATOR_DIR, 'src')))];
  const mtimes = await Promise.all(inputs.map(async (file) => (await stat(file)).mtimeMs));
  return mtimes.every((mtime) => mtime <= jar.mtimeMs);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/** execFile with the output kept on failure: Maven reports errors on stdout, Java on stderr. */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; timeout: number },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `${command} ${args.join(' ')} failed (${error.message.split('\n')[0]})\nstdout:\n${stdout}\nstderr:\n${stderr}`,
              { cause: error },
            ),
          );
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}
