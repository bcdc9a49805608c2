import { splitFindings, type OfficialFinding } from '../platform/official-validator';
import { ublOf } from '../services/documents/queries';
import type { ActivityDependencies } from './dependencies';

/** What the validating step learns; small, because it lands in workflow history. */
export interface OfficialVerdict {
  /** The rule set that judged the document, e.g. "eu.peppol.bis3:2026.5". */
  ruleSet: string;
  /** Why the official rules refuse it (every fatal finding), or null when they accept it. */
  refusal: string | null;
}

/** The longest refusal text kept; a document broken everywhere would otherwise fill history and the row. */
const MAX_REFUSAL_CHARS = 16_000;

/** The most warnings kept on a document: enough to act on, bounded for a document that trips a rule per line. */
const MAX_KEPT_WARNINGS = 50;

/** Every fatal finding, rule id first, as one text for the failed document's error message and history. */
export function describeRefusal(ruleSet: string, fatal: OfficialFinding[]): string {
  const findings = fatal.map((finding) => `[${finding.rule}] ${finding.message} (at ${finding.location})`).join('; ');
  const text = `Refused by the official Peppol rules (${ruleSet}): ${fatal.length} fatal finding${fatal.length === 1 ? '' : 's'}: ${findings}`;
  return text.length > MAX_REFUSAL_CHARS ? `${text.slice(0, MAX_REFUSAL_CHARS - 1)}…` : text;
}

/**
 * The send workflow's validating step: the stored UBL, exactly the bytes
 * that would be sent, judged by the official artefacts. A validator that
 * cannot answer throws, and the activity retry policy tries again; only a
 * verdict ends the step.
 */
export function officialValidation({ store, validator }: Pick<ActivityDependencies, 'store' | 'validator'>) {
  return {
    async validateOfficially(documentId: string): Promise<OfficialVerdict> {
      const ubl = await ublOf(store, documentId);
      if (ubl === null) throw new Error(`document ${documentId} has no stored UBL`);
      const report = await validator.validate(ubl);
      if (report.problem) {
        // The service wrote this UBL itself: unreadable means a bug here, and it must not leave.
        return {
          ruleSet: report.rule_set,
          refusal: `The stored UBL could not be validated (${report.problem.code}): ${report.problem.message}`,
        };
      }
      const { fatal, warnings } = splitFindings(report.findings);
      // Kept on the document (not passed through history), for its page to list with their rule ids.
      if (fatal.length === 0 && warnings.length > 0) {
        const kept = warnings
          .slice(0, MAX_KEPT_WARNINGS)
          .map(({ rule, message, location }) => ({ rule, message, location }));
        await store.documents.updateOne({ _id: documentId }, { $set: { official_warnings: kept } });
      }
      return { ruleSet: report.rule_set, refusal: fatal.length === 0 ? null : describeRefusal(report.rule_set, fatal) };
    },
  };
}
