import { crossesBelow, unitsToEuros, UNITS_PER_EUR } from '../../domain/credits';
import type { Logger } from '../../platform/logger';
import { creditsReleased, creditsSpent } from '../../platform/metrics';
import type { Store } from '../../store';
import { recordEvent } from '../events';
import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { applyCreditOperation, type CreditOperation } from './operations';

/** What live sending costs, from configuration (LIVE_DOCUMENT_PRICE, CREDITS_LOW_THRESHOLD). */
export interface CreditSettings {
  priceUnits: number;
  lowThresholdUnits: number;
}

export class InsufficientCreditsError extends Error {
  override name = 'InsufficientCreditsError';
  constructor(
    readonly balanceUnits: number,
    readonly priceUnits: number,
  ) {
    super(
      `The workspace's credits (${unitsToEuros(balanceUnits)} EUR) do not cover a live document (${unitsToEuros(priceUnits)} EUR).`,
    );
  }
}

const reservationId = (documentId: string) => `reserve:${documentId}`;
const releaseId = (documentId: string) => `release:${documentId}`;

/**
 * Reserves the price of a live document (the workspace's, from
 * requireLiveSending) when it is accepted; throws
 * InsufficientCreditsError (nothing changed) when the balance does not cover
 * it. Raises `credits.low` when this reservation takes the balance below the
 * threshold: once per crossing, since each crossing is one operation's.
 */
export async function reserveForDocument(
  deps: FanOutDependencies & { settings: CreditSettings },
  charge: { workspaceId: string; companyId: string; documentId: string; accountId: string; priceUnits: number },
): Promise<{ balanceUnits: number }> {
  const { priceUnits } = charge;
  const operation: CreditOperation = {
    id: reservationId(charge.documentId),
    kind: 'reservation',
    amountUnits: -priceUnits,
    documentId: charge.documentId,
    actor: charge.accountId,
  };
  const result = await applyCreditOperation(deps.store, charge.workspaceId, operation);
  if (!result.applied && !result.repeated) throw new InsufficientCreditsError(result.balanceUnits, priceUnits);
  if (result.applied) creditsSpent.inc(priceUnits / UNITS_PER_EUR);
  if (
    result.applied &&
    crossesBelow(result.balanceUnits + priceUnits, result.balanceUnits, deps.settings.lowThresholdUnits)
  ) {
    await raiseCreditsLow(deps, charge.workspaceId, charge.companyId, operation.id, result.balanceUnits);
  }
  return { balanceUnits: result.balanceUnits };
}

/**
 * Gives a reservation back (the document failed, or its request never
 * stored it): once, and only for a reservation that was made.
 */
export async function releaseReservation(
  store: Store,
  workspaceId: string,
  documentId: string,
  logger?: Logger,
): Promise<void> {
  const reserved = await store.creditLedger.findById(reservationId(documentId)).lean();
  const marked = reserved
    ? undefined
    : (
        (await store.workspaces.findById(workspaceId).lean())?.credit_ops as
          Record<string, { amount_units: number }> | undefined
      )?.[reservationId(documentId)];
  const amountUnits = reserved?.amount_units ?? marked?.amount_units;
  if (amountUnits === undefined) return;
  const result = await applyCreditOperation(store, workspaceId, {
    id: releaseId(documentId),
    kind: 'release',
    amountUnits: -amountUnits,
    documentId,
  });
  if (!result.applied) return;
  creditsReleased.inc(-amountUnits / UNITS_PER_EUR);
  logger?.info({ documentId, workspaceId, units: -amountUnits }, 'released the reservation of a live document');
}

async function raiseCreditsLow(
  deps: FanOutDependencies & { settings: CreditSettings },
  workspaceId: string,
  companyId: string,
  operationId: string,
  balanceUnits: number,
) {
  const { event } = await recordEvent(
    deps.store,
    {
      dedupeKey: `credits.low:${operationId}`,
      type: 'credits.low',
      workspaceId,
      environment: 'live',
      companyId,
      documentId: null,
      data: {
        company_id: companyId,
        balance: Number(unitsToEuros(balanceUnits)),
        threshold: Number(unitsToEuros(deps.settings.lowThresholdUnits)),
      },
    },
    deps.logger,
  );
  await fanOutSoon(deps, event);
}
