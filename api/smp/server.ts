import { readFileSync } from 'node:fs';

import express, { type Express } from 'express';

import { processOf } from '../../domain/peppol/capabilities';
import { serviceProviderParticipant } from '../../domain/peppol/ids';
import { identifierOfSegment } from '../../domain/peppol/smp';
import { ConfigError, type Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { readSmpSigner } from '../../platform/peppol/smp-signature';
import { servedBusinessCard } from '../../services/receiving/business-card';
import { publishedDocumentTypes } from '../../services/receiving/registration';
import { serviceProviderDocumentTypes } from '../../services/receiving/service-provider';
import type { Store } from '../../store';
import { smpRouter, type SmpDirectory } from './router';

/**
 * Our SMP: the SMP server (api/smp/router.ts) over the companies registered as
 * receivers (peppol_registrations), each document type under its process
 * (billing, or the Invoice Response's), and our service provider participant
 * for Message Level Status (services/receiving/service-provider.ts), every endpoint our access point's AS4 URL and certificate, signed
 * with our SMP certificate. A participant is published from the moment it is
 * claimed, before the SML names this SMP for it; its business card once it is
 * registered, unless the company opted out (services/receiving/business-card.ts).
 */

const SETTINGS = [
  'SMP_PUBLIC_URL',
  'SMP_SIGNING_CERTIFICATE',
  'SMP_SIGNING_KEY',
  'ACCESS_POINT_ENDPOINT_URL',
  'ACCESS_POINT_CERTIFICATE',
] as const;

function registeredReceivers(store: Store, serviceProvider: string | undefined): SmpDirectory {
  return {
    async servicesOf(participantValue) {
      const documentTypes =
        serviceProviderDocumentTypes(serviceProvider, participantValue) ??
        (await publishedDocumentTypes(store, participantValue));
      if (!documentTypes) return undefined;
      return {
        services: documentTypes
          .flatMap((id) => identifierOfSegment(id) ?? [])
          .map((documentType) => ({ documentType, process: processOf(documentType) })),
      };
    },
    businessCardOf: (participantValue) => servedBusinessCard(store, participantValue),
  };
}

/** The SMP's app, or undefined when SMP_PORT is not set; a missing companion setting stops the process. */
export function ourSmpApp(config: Config, store: Store, logger: Logger): Express | undefined {
  if (!config.SMP_PORT) return undefined;
  const missing = SETTINGS.filter((name) => !config[name]);
  if (missing.length > 0)
    throw new ConfigError(
      `SMP_PORT is set, so our SMP is served, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not`,
    );
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    res.on('finish', () => logger.debug({ method: req.method, path: req.path, status: res.statusCode }, 'smp request'));
    next();
  });
  app.use(
    smpRouter({
      directory: registeredReceivers(store, config.PEPPOL_SEAT_ID && serviceProviderParticipant(config.PEPPOL_SEAT_ID)),
      publicUrl: config.SMP_PUBLIC_URL!,
      endpoint: {
        url: config.ACCESS_POINT_ENDPOINT_URL!,
        certificate: readFileSync(config.ACCESS_POINT_CERTIFICATE!, 'utf8'),
        description: 'Peppol access point of the e-invoice delivery service',
        technicalContactUrl: config.PUBLIC_LIVE_URL ?? 'https://live.localhost',
      },
      signer: readSmpSigner(config.SMP_SIGNING_CERTIFICATE!, config.SMP_SIGNING_KEY!),
    }),
  );
  return app;
}
