import type { Client } from '@temporalio/client';

import type { MlsRequest } from '../domain/peppol/envelope';
import type { SecretBox } from '../domain/secret-box';
import type { Logger } from '../platform/logger';
import type { OfficialValidator } from '../platform/official-validator';
import type { PeppolAccessPoint } from '../platform/peppol/access-point';
import type { CachedPeppolLookup } from '../platform/peppol/cached-lookup';
import type { BusinessCardPublishing, SmlRegistration } from '../platform/peppol/network-registration';
import type { FanOutDependencies } from '../services/webhooks/deliveries';
import type { ReportingSettings } from '../services/reporting/send';
import type { UsageCounters } from '../services/usage';
import type { Store } from '../store';
import type { DeliveryWindows } from '../workflows/shared';

/**
 * What every activity factory closes over: the worker process's connections
 * and settings. A file of its own, so the factories import it without
 * importing activities/index.ts, which imports them.
 */
export interface ActivityDependencies {
  store: Store;
  logger: Logger;
  smtpUrl: string;
  mailFrom: string;
  /** Where reminders of KYC reviews still waiting go (OPERATOR_EMAIL). */
  operatorEmail: string;
  usage: UsageCounters;
  temporal: Client;
  /** How long delivery is retried, by environment; Invoice Responses go on Peppol, within the live window. */
  deliveryWindows: DeliveryWindows;
  secretBox: SecretBox;
  allowPrivateTargets: boolean;
  /** The official Peppol rules, asked before every send. */
  validator: OfficialValidator;
  /**
   * Live delivery: participant discovery (kept for a while, forgotten when a send fails), our AS4 access point (its
   * seat id is C2 or C3 in the reporting items), and the Message Level Status our envelopes ask for (none without our SPID).
   */
  peppol: { lookup: CachedPeppolLookup; accessPoint: PeppolAccessPoint; mls?: MlsRequest };
  /** Registering our companies as receivers in the SML (through our access point). */
  sml: SmlRegistration;
  /** Their business cards in the Peppol Directory (through our access point). */
  directory: BusinessCardPublishing;
  /** Where the monthly Peppol reports go, and as whom (PEPPOL_REPORTING_*). */
  reporting: ReportingSettings;
  /** What fanning events out to webhooks needs. */
  fanOut: FanOutDependencies;
}
