import { convertDocument } from '../domain/documents/convert';
import { documentInputSchema } from '../domain/documents/input';
import { nameBasedUuid, routingOf, standardBusinessDocument } from '../domain/peppol-envelope';
import { fullIdentifier } from '../domain/peppol-smp';
import { peppolAccessPoint } from '../platform/peppol-access-point';
import { peppolLookup, receivingEndpoint } from '../platform/peppol-lookup';
import { peppolTrust } from '../platform/peppol-trust';
import { validFixtures } from '../test/fixtures/documents';
import { benchStack, envNumber, runBenchmark, say } from './harness';
import { closedLoop, singleClient, versus } from './support';

/**
 * `npm run bench:as4`: live delivery's own costs on the local Peppol network
 * of an embedded stack, each beside its floor measured in the same run:
 *   lookup  the receiver lookup (SML over DNS, then the SMP) vs the SML's DNS query alone
 *   send    one AS4 send through our access point to the stand-in receiving access point
 *           (sign, encrypt, post, the receiver's verify, decrypt and store, its signed receipt
 *           checked), one at a time and at BENCH_CONCURRENCY (4), vs posting the same SBD bytes
 *           to the receiving access point as plain HTTP (refused as not AS4: the transport alone)
 * No target: figures for sizing. BENCH_REQUESTS (200) each.
 */

const REQUESTS = envNumber('BENCH_REQUESTS', 200);
const CONCURRENCY = envNumber('BENCH_CONCURRENCY', 4);

async function main(): Promise<void> {
  const { stack, stop } = await benchStack({});
  try {
    const peppol = stack.urls.peppol;
    if (!peppol) throw new Error('the bench needs the local Peppol network (unset PEPPOL_DNS_SERVER)');
    const fixture = validFixtures[0]!;
    const converted = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
    if (!converted.ok) throw new Error('the fixture does not convert');
    const routing = routingOf(converted.ubl);
    // The stand-in's SMP listens on 127.0.0.1.
    const lookup = peppolLookup({
      zone: peppol.zone,
      dnsServer: peppol.dnsServer,
      smpAddresses: { allowPrivate: true },
      trust: peppolTrust({ PEPPOL_SMP_CA: peppol.ca, PEPPOL_AP_CA: peppol.ca }),
    });
    const discover = async () => {
      const endpoint = await receivingEndpoint(lookup, routing.receiver, routing.kind, new Date());
      if ('refusal' in endpoint) throw new Error(endpoint.refusal);
      return endpoint;
    };
    const endpoint = await discover();
    const accessPoint = peppolAccessPoint(stack.urls.accessPoint);
    const run = Date.now();
    const send = (i: number) =>
      accessPoint.send({
        messageId: `bench-${run}-${i}@einvoice`,
        senderId: routing.sender,
        receiverId: routing.receiver,
        documentTypeId: fullIdentifier(routing.documentType),
        processId: fullIdentifier(routing.process),
        countryC1: routing.countryC1,
        endpointUrl: endpoint.url,
        receiverCertificate: endpoint.certificate,
        sbd: standardBusinessDocument(converted.ubl, routing, { instanceId: nameBasedUuid(`bench-${run}-${i}`), createdAt: new Date() }),
      });

    say(`stack: access point ${stack.urls.accessPoint}, receiving access point ${peppol.receivingAccessPoint}; a ${converted.ubl.length}-byte invoice`);
    // Both JVMs compile their hot paths on the first sends.
    for (let i = 0; i < 30; i += 1) await send(-1 - i);
    const sbd = standardBusinessDocument(converted.ubl, routing, { instanceId: nameBasedUuid(`bench-${run}`), createdAt: new Date() });
    const plainPost = async () => {
      const response = await fetch(endpoint.url, { method: 'POST', headers: { 'Content-Type': 'application/xml' }, body: sbd });
      await response.arrayBuffer();
    };
    const smlOnly = () => lookup.sml(routing.receiver);
    say(versus('receiver lookup (SML by DNS, then the SMP), one at a time', await singleClient(REQUESTS, discover), await singleClient(REQUESTS, smlOnly)));
    const plainOne = await singleClient(REQUESTS, plainPost);
    say(versus('AS4 send with receipt, one at a time', await singleClient(REQUESTS, (i) => send(i)), plainOne));
    const plainMany = await closedLoop(REQUESTS, CONCURRENCY, plainPost);
    say(versus(`AS4 sends with receipts, concurrency ${CONCURRENCY}`, await closedLoop(REQUESTS, CONCURRENCY, (i) => send(REQUESTS + i)), plainMany));
  } finally {
    await stop();
  }
}

runBenchmark(main);
