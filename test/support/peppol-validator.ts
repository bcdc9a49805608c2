import {
  officialValidator,
  splitFindings,
  type OfficialFinding,
  type ValidationLane,
} from '../../platform/official-validator';
import { sharedStack } from './test-stack';
import { until } from './until';

/**
 * The official Peppol BIS Billing 3.0 / EN 16931 artefacts, as the service
 * itself runs them: the shared stack's validator service (validator/),
 * through the same client the send workflow uses.
 */

interface Finding {
  rule: string;
  message: string;
  location: string;
}

export interface ValidationResult {
  name: string;
  valid: boolean;
  /** The rule set that judged it, e.g. `eu.peppol.bis3:2026.5`. */
  ruleSet: string;
  fatal: Finding[];
  warnings: Finding[];
}

const strip = ({ rule, message, location }: OfficialFinding): Finding => ({ rule, message, location });

/**
 * Validates UBL documents; results come back in the order of `documents`. One at a time, in the validator's
 * `interactive` lane (as a client's validation is): a test's batch never holds the `send` lane's permits, which
 * the shared stack's send workflows need, nor waits past its time limit behind its own queue.
 */
export async function validateUbl(documents: { name: string; xml: string }[]): Promise<ValidationResult[]> {
  const validator = officialValidator(sharedStack().validatorUrl);
  const results: ValidationResult[] = [];
  for (const { name, xml } of documents) {
    const report = await validator.validate(xml, { lane: 'interactive' });
    if (report.problem)
      throw new Error(`"${name}" could not be validated: ${report.problem.code}: ${report.problem.message}`);
    const { fatal, warnings } = splitFindings(report.findings);
    results.push({
      name,
      valid: report.valid,
      ruleSet: report.rule_set,
      fatal: fatal.map(strip),
      warnings: warnings.map(strip),
    });
  }
  return results;
}

/** What one lane of the validator is doing, as its health answer says. */
export interface LaneCounts {
  permits: number;
  running: number;
  completed: number;
  stopped: number;
  lost: number;
}

/** Every lane of the shared stack's validator (send, interactive, public, receive, render, view), from its health answer. */
export async function validatorLanes(): Promise<Record<ValidationLane, LaneCounts>> {
  return (
    (await (await fetch(`${sharedStack().validatorUrl}/health`)).json()) as {
      lanes: Record<ValidationLane, LaneCounts>;
    }
  ).lanes;
}

/**
 * Waits until every worker process of the shared stack's validator is warm: it listens once the first of each kind
 * is, and the others warm one after another; a worker killed at a time limit is replaced the same way. Until then a
 * lane's job may wait for a worker, so what holds lanes apart (or what a rendering keeps) is tested once none is
 * warming and none is missing (a replacement is alive from its start, before it is warm).
 */
export async function validatorWarm(): Promise<void> {
  const pools = async () =>
    (
      (await (await fetch(`${sharedStack().validatorUrl}/health`)).json()) as {
        pools: Record<'validate' | 'render', { warming: number; workers: number; pids: number[] }>;
      }
    ).pools;
  await until(
    'every validator worker warm',
    pools,
    ({ validate, render }) =>
      [validate, render].every((pool) => pool.warming === 0 && pool.pids.length >= pool.workers),
    300_000,
    500,
  );
}
