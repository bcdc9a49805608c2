import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { condition, proxyActivities, setCurrentDetails, setHandler, defineSignal } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { RECEIVING_CHANGED_SIGNAL, REGISTRATION_RETRY, type SyncReceivingInput } from './shared';

const { planReceiving, recordReceivingOutcome } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { initialInterval: '1 second', maximumInterval: '1 minute' } });
const { registerReceiver, unregisterReceiver } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: REGISTRATION_RETRY });

export const receivingChanged = defineSignal(RECEIVING_CHANGED_SIGNAL);

const reasonOf = (err: unknown): string => {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
};

/**
 * A company's registration as a Peppol receiver (id `receiving-<company id>`),
 * brought in line with the company: registered in our SMP and the SML while
 * it is live, not deleted, its workspace not suspended and it has a Peppol id;
 * unregistered otherwise. Started (or signalled, when it runs) whenever one of
 * those changes; it plans again after every pass until nothing is left to do.
 *
 *   plan ──unregister each participant it should no longer have──▶
 *        ──register the one it should have──▶ registered | unregistered
 *   a step that keeps failing (about half an hour of backoff) or is refused ──▶ failed, saying why
 */
export async function syncReceivingWorkflow({ companyId }: SyncReceivingInput): Promise<'registered' | 'unregistered' | 'failed'> {
  let changed = true;
  setHandler(receivingChanged, () => {
    changed = true;
  });
  let outcome: 'registered' | 'unregistered' | 'failed' = 'unregistered';
  let step = 0;
  while (changed) {
    changed = false;
    const plan = await planReceiving(companyId);
    let participant: string | null = plan.register;
    try {
      for (const old of plan.unregister) {
        participant = old;
        setCurrentDetails(`Unregistering ${old} from the SML and our SMP`);
        await unregisterReceiver(companyId, old);
        await recordReceivingOutcome(companyId, { status: 'unregistered', participant: old }, step++);
      }
      participant = plan.register;
      if (plan.register) {
        setCurrentDetails(`Registering ${plan.register} in our SMP and the SML`);
        await registerReceiver(companyId, plan.register);
        await recordReceivingOutcome(companyId, { status: 'registered', participant: plan.register }, step++);
      }
      outcome = plan.desired ? 'registered' : 'unregistered';
    } catch (err) {
      const reason = reasonOf(err);
      await recordReceivingOutcome(companyId, { status: 'failed', participant, error_message: reason }, step++);
      setCurrentDetails(`Failed: ${reason}`);
      outcome = 'failed';
    }
    // A change signalled while the last step ran is planned for before the workflow ends.
    await condition(() => changed, 1);
  }
  setCurrentDetails(`Done: ${outcome}`);
  return outcome;
}
