import type { ActivityDependencies } from './dependencies';
import { emailDeliveryActivities } from './email-delivery';
import { kycActivities } from './kyc';
import { lifecycleActivities } from './lifecycle';
import { maintenanceActivities } from './maintenance';
import { peppolDeliveryActivities } from './peppol-delivery';
import { receivedDocumentActivities, registrationActivities } from './receiving';
import { attachedPdfActivities } from './rendered-pdf';
import { reportingActivities } from './reporting';
import { validateForSendingActivities } from './validate-for-sending';
import { replyActivities } from './replies';
import { webhookActivities } from './webhooks';

/**
 * Every activity factory the worker registers. Each takes only the dependencies it uses (a `Pick` of
 * ActivityDependencies), and no two may export one activity name: the worker registers activities by name, so
 * the later would silently replace the earlier. `DuplicateActivityNames` below makes that a type error.
 */
const FACTORIES = [
  maintenanceActivities,
  lifecycleActivities,
  attachedPdfActivities,
  validateForSendingActivities,
  emailDeliveryActivities,
  peppolDeliveryActivities,
  webhookActivities,
  kycActivities,
  receivedDocumentActivities,
  registrationActivities,
  reportingActivities,
  replyActivities,
] as const;

type ActivitiesOf<Factory> = Factory extends (deps: never) => infer Made ? Made : never;
type NamesOf<Factories> = Factories extends readonly [infer First, ...infer Rest]
  ? keyof ActivitiesOf<First> | NamesOf<Rest>
  : never;
/**
 * The names two factories both export: each factory's against all that follow it.
 * @internal
 */
export type DuplicateActivityNames<Factories> = Factories extends readonly [infer First, ...infer Rest]
  ? (keyof ActivitiesOf<First> & NamesOf<Rest>) | DuplicateActivityNames<Rest>
  : never;
type AllActivities<Factories> = Factories extends readonly [infer First, ...infer Rest]
  ? ActivitiesOf<First> & AllActivities<Rest>
  : unknown;

/** Compiles only while no activity name is exported twice; otherwise the error names the duplicates. */
const noDuplicateNames: [DuplicateActivityNames<typeof FACTORIES>] extends [never]
  ? true
  : { duplicateActivityNames: DuplicateActivityNames<typeof FACTORIES> } = true;
void noDuplicateNames;

export type Activities = AllActivities<typeof FACTORIES>;

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies): Activities {
  return Object.assign({}, ...FACTORIES.map((factory) => factory(deps))) as Activities;
}
