import path from 'node:path';

import type { StackConfig } from './config';
import type { StackUrls } from './components';

/** A directory as a person types it: relative to where `npm start` ran when it lies below it (`./data/logs`). */
function shownDir(dir: string, cwd: string): string {
  const relative = path.relative(cwd, dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? `./${relative}` : dir;
}

/**
 * What `npm start` prints once every component is ready: where each is, the rows of the README's table
 * ("Once it is ready, `npm start` prints where everything is"; test/unit/ready-banner.test.ts holds them
 * to it). Components the stack does not run (an existing server named by its variable) say so.
 */
export function readyBanner(urls: StackUrls, config: StackConfig, cwd = process.cwd()): string {
  const { api, peppol, metrics } = urls;
  const metricsUrls = [metrics.api, metrics.worker, metrics.temporalWorker].filter(Boolean).join(', ');
  return [
    '',
    'E-invoice delivery service is ready:',
    `  API              ${api}   (health: ${api}/v1/health, reference: ${api}/docs, OpenAPI: ${api}/v1/openapi.json)`,
    `  Web app          ${api}/app   (sign in with your account's email; the link arrives in the mail inbox)`,
    `  Temporal Web UI  ${urls.temporalUi ?? `external server at ${urls.temporal}`}`,
    `  Mail inbox       ${urls.inbox ?? `external SMTP at ${urls.smtp}`}`,
    `  Validator        ${urls.validator}   (official Peppol rules; public: ${api}/v1/ubl/validate)`,
    ...(peppol
      ? [
          `  Peppol network   local stand-in: SML zone ${peppol.zone} on DNS ${peppol.dnsServer} (management ${peppol.sml}), SMP ${peppol.smp}   (lookup: ${api}/v1/lookup/0208:0987654394)`,
          `                   receiving access point ${peppol.receivingAccessPoint}/as4   (what arrived: ${peppol.receivingAccessPoint}/inbox, what it sent: ${peppol.receivingAccessPoint}/sent)`,
          `                   independent access point, Oxalis ${peppol.oxalis}   (what arrived: ${shownDir(path.join(config.DATA_DIR, 'peppol-network', 'oxalis', 'inbound'), cwd)}/; sends with: npm run --silent ops -- network send --via oxalis)`,
        ]
      : [`  Peppol network   SML zone ${config.PEPPOL_SML_ZONE} by DNS ${config.PEPPOL_DNS_SERVER}`]),
    `  Access point     ${urls.accessPoint}/health   (ours: sends live documents by AS4${urls.accessPointAs4 ? `; receives at ${urls.accessPointAs4}` : ''})`,
    `  Operator CLI     npm run --silent ops -- help   (KYC review, credits, suspension, accounts, stuck work)`,
    `  Metrics          ${metricsUrls}   (Prometheus text: the API's, the worker's, the Temporal SDK's)`,
    `  Logs             ${shownDir(path.join(config.DATA_DIR, 'logs'), cwd)}/`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}
