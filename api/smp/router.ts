import express, { type Response, type Router } from 'express';

import { businessCardXml, type BusinessCard } from '../../domain/peppol/directory';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/sml';
import { identifierOfSegment, type Identifier } from '../../domain/peppol/smp';
import {
  documentTypesOf,
  processesFor,
  serviceGroupXml,
  serviceMetadataXml,
  type PublishedService,
  type SmpEndpoint,
} from '../../domain/peppol/smp-publishing';
import { signServiceMetadata, type SmpSigner } from '../../platform/peppol/smp-signature';

/**
 * A Peppol SMP 1.x, read-only (the Peppol SMP specification 1.4.0, its REST
 * interface): `GET /{participant id}` answers the ServiceGroup and
 * `GET /{participant id}/services/{document type id}` the
 * SignedServiceMetadata, signed on every answer as phoss-SMP does, and
 * `GET /businesscard/{participant id}` the participant's Peppol Directory
 * business card (the interface the Directory specification asks every SMP
 * for; 404 for a participant without one). Ids are
 * full (`scheme::value`), one path segment each, percent-encoded or not. An
 * unknown participant or document type is 404; any method but GET (and
 * HEAD) is 405: the specification defines no writes. Who receives what comes
 * from a directory, so the local network stand-in (participants.json) and
 * our own SMP (our companies) are the same server.
 */

/** The participants an SMP publishes. */
export interface SmpDirectory {
  /**
   * The services of a participant of the scheme iso6523-actorid-upis, by its
   * value lower-cased (`0208:0123456749`: participant ids compare
   * case-insensitively, B.1); undefined when it is not published here.
   */
  servicesOf(participantValue: string): Promise<{ services: PublishedService[]; endpoint?: SmpEndpoint } | undefined>;
  /** Its business card, by the value lower-cased; undefined when it shows none. */
  businessCardOf?(participantValue: string): Promise<BusinessCard | undefined>;
}

export interface SmpServerOptions {
  directory: SmpDirectory;
  /** This SMP's URL as the SML publishes it: the ServiceGroup names each service metadata by its full URL. */
  publicUrl: string;
  /** The access point every service names, unless the directory names another for a participant. */
  endpoint: SmpEndpoint;
  /** The SMP certificate (issued by the Peppol SMP CA) and its key. */
  signer: SmpSigner;
}

const XML = 'text/xml; charset=utf-8';

const notFound = (res: Response, what: string) => res.status(404).type('text/plain').send(`${what}\n`);

/** The participant a path segment names, when it is of the Peppol participant scheme. */
function participantOf(segment: string): Identifier | undefined {
  const id = identifierOfSegment(segment);
  return id && id.scheme.toLowerCase() === PARTICIPANT_SCHEME
    ? { scheme: PARTICIPANT_SCHEME, value: id.value.toLowerCase() }
    : undefined;
}

/** The SMP's routes, with a 404 for every other path: mount it after anything else the server answers. */
export function smpRouter(options: SmpServerOptions): Router {
  const router = express.Router();

  router.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send('The SMP interface is read-only: GET only.\n');
  });

  router.get('/businesscard/:participant', async (req, res) => {
    const participant = participantOf(req.params.participant);
    const card = participant && (await options.directory.businessCardOf?.(participant.value));
    if (!card) return notFound(res, 'No business card for this participant.');
    res.type(XML).send(businessCardXml(card));
  });

  router.get('/:participant', async (req, res) => {
    const participant = participantOf(req.params.participant);
    const entry = participant && (await options.directory.servicesOf(participant.value));
    if (!participant || !entry) return notFound(res, 'Unknown participant.');
    res.type(XML).send(serviceGroupXml(options.publicUrl, participant, documentTypesOf(entry.services)));
  });

  router.get('/:participant/services/:documentType', async (req, res) => {
    const participant = participantOf(req.params.participant);
    const entry = participant && (await options.directory.servicesOf(participant.value));
    if (!participant || !entry) return notFound(res, 'Unknown participant.');
    const documentType = identifierOfSegment(req.params.documentType);
    const processes = documentType ? processesFor(entry.services, documentType) : [];
    if (!documentType || processes.length === 0) return notFound(res, 'Unknown document type for this participant.');
    res
      .type(XML)
      .send(
        signServiceMetadata(
          serviceMetadataXml(participant, documentType, processes, entry.endpoint ?? options.endpoint),
          options.signer,
        ),
      );
  });

  router.use((_req, res) =>
    notFound(
      res,
      'Not an SMP resource: GET /{participant id}, /{participant id}/services/{document type id} or /businesscard/{participant id}.',
    ),
  );
  return router;
}
