import type { Identifier } from '../domain/peppol-smp';
import { PEPPOL_AS4 } from '../domain/peppol-capabilities';
import { checkHost } from './checked-host';
import { discoverParticipant, type PeppolLookup } from './peppol-lookup';

/**
 * Where a document of any Peppol document type goes (a report, say): the
 * receiver's endpoint for that document type and process, by Peppol AS4,
 * that the lookup found usable (signature, certificate, dates), at an
 * address we send to; or why not, for good. `receivingEndpoint` does the same
 * for the billing documents and words its refusals for them.
 */
export async function endpointForDocumentType(
  lookup: PeppolLookup,
  receiver: string,
  documentType: Identifier,
  process: Identifier,
  now: Date,
): Promise<{ url: string; certificate: string } | { refusal: string }> {
  const discovery = await discoverParticipant(lookup, receiver, now);
  if (!discovery.found) return { refusal: `${receiver} is not on the Peppol network: ${discovery.why}` };
  const listed = discovery.capabilities.filter(
    (entry) => entry.documentType.scheme === documentType.scheme && entry.documentType.value === documentType.value && entry.process.scheme === process.scheme && entry.process.value === process.value,
  );
  if (listed.length === 0) return { refusal: `${receiver}'s SMP does not list ${documentType.value} under ${process.value}` };
  const usable = listed.find((entry) => entry.transportProfile === PEPPOL_AS4 && entry.problems.length === 0 && entry.certificateData);
  if (!usable?.certificateData) return { refusal: `${receiver} cannot receive ${documentType.value}: ${listed[0]!.problems[0] ?? 'no usable endpoint'}` };
  const host = await checkHost(new URL(usable.endpointUrl), lookup.accessPointAddresses);
  if (!host.ok && host.problem === 'not_public') return { refusal: `${receiver}'s SMP names an access point this service does not send to (${usable.endpointUrl}): ${host.reason}` };
  return { url: usable.endpointUrl, certificate: usable.certificateData };
}
