import { loadStackConfig } from './config';
import { StackError } from './errors';
import {
  ensureTool,
  FACTURX_CHECKER,
  FERRETDB,
  OPENTELEMETRY_JAVA_AGENT,
  PEPPOL_ACCESS_POINT,
  PEPPOL_OXALIS,
  PEPPOL_VALIDATOR,
  TEMPORAL_CLI,
  TEMPORAL_SERVER,
  TEMPORAL_TEST_SERVER,
  TEMPORAL_UI,
} from './tools';

/**
 * `npm run tools`: builds the pinned Temporal CLI, FerretDB, the official validator, the access point and Oxalis (the stand-in
 * network's independent access point), and the production shape's Temporal server and Web UI, and fetches the OpenTelemetry
 * Java agent (our access point's tracing), Temporal's time-skipping test server (the workflow tests') and Mustangproject's Factur-X
 * validator (the Factur-X tests'), into the per-machine cache.
 */
async function main(): Promise<void> {
  const config = loadStackConfig();
  const say = (line: string) => process.stdout.write(`[tools] ${line}\n`);
  for (const tool of [
    TEMPORAL_CLI,
    FERRETDB,
    PEPPOL_VALIDATOR,
    PEPPOL_ACCESS_POINT,
    PEPPOL_OXALIS,
    OPENTELEMETRY_JAVA_AGENT,
    TEMPORAL_SERVER,
    TEMPORAL_UI,
    TEMPORAL_TEST_SERVER,
    FACTURX_CHECKER,
  ]) {
    say(`${tool.name} ${tool.version}: ${await ensureTool(config.TOOLS_DIR, tool, say)}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[tools] ${err instanceof StackError ? err.message : String(err)}\n`);
  process.exit(1);
});
