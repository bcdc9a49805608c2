import { ApplicationFailure, Context } from '@temporalio/activity';

import { As4SendError } from '../platform/peppol/access-point';
import {
  ReportingRefusedError,
  sendMonthReports,
  type Claimant,
  type ReportingOutcome,
} from '../services/reporting/send';
import { REPORTING_REFUSED } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';

/** The monthly Peppol reporting's side effect: build, validate and send a month's TSR and EUSR, once. */
export function reportingActivities({
  store,
  logger,
  validator,
  peppol,
  reporting,
}: Pick<ActivityDependencies, 'store' | 'logger' | 'validator' | 'peppol' | 'reporting'>) {
  return {
    /**
     * Safe to repeat: the month's claim keeps the reports and what was sent. A refusal no retry mends (invalid
     * reports, a receiver that cannot take them, a month another sender claimed) ends it; anything else (the
     * validator, the lookup or the access point away) is retried by the workflow's policy.
     */
    async sendPeppolReports(month: string, claimant: Claimant): Promise<ReportingOutcome> {
      try {
        return await sendMonthReports(
          {
            store,
            validator,
            seat: () => peppol.accessPoint.seat(),
            lookup: peppol.lookup,
            accessPoint: peppol.accessPoint,
            settings: reporting,
            logger,
          },
          month,
          claimant,
          Context.current().cancellationSignal,
        );
      } catch (err) {
        if (err instanceof ReportingRefusedError) throw ApplicationFailure.nonRetryable(err.message, REPORTING_REFUSED);
        if (err instanceof As4SendError && err.permanent)
          throw ApplicationFailure.nonRetryable(
            `the reporting receiver's access point refused: ${err.message}`,
            REPORTING_REFUSED,
          );
        throw err;
      }
    },
  };
}
