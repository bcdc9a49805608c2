import { createHash } from 'node:crypto';

import { envelopedPayload } from '../../domain/peppol/envelope';
import { callAs } from '../support/accounts';
import { LIVE } from '../support/documents';
import {
  ciiTotalsWritten,
  embeddedFileCount,
  officialExamples,
  REFUSED_BY_OUR_CHECKS,
  totalsWritten,
} from '../support/official-examples';
import { liveReceiver, sendToUs } from '../support/receiving';
import { until } from '../support/until';

/**
 * The official example instances, received for real: each sent by AS4 from
 * the stand-in's access point to ours for one live company, through the
 * intake and the receive workflow, then read back from the API. The OpenPeppol
 * BIS examples pass the official rules and carry a JSON view whose document,
 * posted back (validated as POST /v1/documents would send it), passes them
 * too with the same totals wherever our own checks take the example's test
 * data; the CEN EN 16931 examples (core, not Peppol) are kept and reported
 * with their rule ids. (The JSON round trip of every example, exceptions
 * named, is test/conformance/received-examples.test.ts.)
 */

const peppol = officialExamples('peppol-bis');
const cen = officialExamples('en16931');
const examples = [...peppol, ...cen];

interface Received {
  name: string;
  xml: string;
  document: Record<string, any>;
  ubl: string;
}

let received: Received[] = [];
let receiver: Awaited<ReturnType<typeof liveReceiver>>;

beforeAll(async () => {
  receiver = await liveReceiver();
  const run = Date.now();
  const messageIds = new Map<string, string>();
  for (const [index, example] of examples.entries()) {
    const messageId = `example-${index}-${run}@received-examples`;
    messageIds.set(messageId, example.name);
    await sendToUs(example.xml, receiver.peppolId, messageId);
  }
  const listed = await until(
    'every example filed',
    () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}&limit=100`, { host: LIVE }),
    (response) => response.body.data?.length === examples.length,
    180_000,
  );
  received = await Promise.all(
    listed.body.data.map(async ({ id }: { id: string }) => {
      const document = (
        await callAs(receiver.liveKey, `/v1/documents/${id}?company_id=${receiver.companyId}`, { host: LIVE })
      ).body;
      const name = messageIds.get(document.received.as4_message_id)!;
      const ubl = (await callAs(receiver.liveKey, `/v1/documents/${id}/ubl`, { host: LIVE })).text;
      return { name, xml: examples.find((example) => example.name === name)!.xml, document, ubl };
    }),
  );
}, 300_000);

const receivedAs = (name: string) => received.find((entry) => entry.name === name)!;

/** A total as the API shows one an example writes: the same digits, with two decimals at least (`1300` is `1300.00`). */
const shownAs = (written: string | null) =>
  written === null ? null : written.includes('.') ? written.padEnd(written.indexOf('.') + 3, '0') : `${written}.00`;

describe.each(peppol.map(({ name }) => ({ name })))('the Peppol BIS example $name, received by AS4', ({ name }) => {
  it('when filed, then its bytes are kept, the official rules accept it, its JSON view is there and its totals are the ones it states', () => {
    const { xml, document, ubl } = receivedAs(name);
    expect(ubl).toBe(envelopedPayload(xml).trim());
    expect(document.received.validation).toMatchObject({ valid: true, errors: [] });
    expect(document.received.json_view).not.toBeNull();
    const written = totalsWritten(xml);
    expect(document.totals).toMatchObject({
      payable: shownAs(written.payable),
      tax_exclusive: shownAs(written.tax_exclusive),
      tax_inclusive: shownAs(written.tax_inclusive),
    });
  });

  it('when it embeds files, then each is listed and downloads decoded, its SHA-256 as listed', async () => {
    const { xml, document } = receivedAs(name);
    expect(document.attachments).toHaveLength(embeddedFileCount(xml));
    for (const attachment of document.attachments as { id: string; size_bytes: number; sha256: string }[]) {
      const { status, bytes } = await callAs(
        receiver.liveKey,
        `/v1/documents/${document.id}/attachments/${attachment.id}`,
        { host: LIVE },
      );
      expect({ status, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({
        status: 200,
        size: attachment.size_bytes,
        sha256: attachment.sha256,
      });
    }
  });

  it('when its JSON view is posted back for validation, then the official rules accept the UBL written from it, with the same totals, or our checks refuse only what its test data cannot pass', async () => {
    const { xml, document } = receivedAs(name);
    const posted = await callAs(receiver.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...document.received.json_view, company_id: receiver.companyId },
    });
    const refused = REFUSED_BY_OUR_CHECKS[name];
    if (refused) {
      expect(posted.body.valid).toBe(false);
      expect(posted.body.violations.map((violation: { path: string }) => violation.path).sort()).toEqual(
        [...new Set(refused.refused.map((entry) => entry.split(' ')[0]))].sort(),
      );
      return;
    }
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ valid: true, official: { errors: [] } });
    const written = totalsWritten(xml);
    expect(posted.body.totals).toMatchObject({
      payable: written.payable,
      tax_exclusive: written.tax_exclusive,
      tax_inclusive: written.tax_inclusive,
    });
  });
});

describe('the CEN EN 16931 examples, received by AS4', () => {
  it('when filed, then each is kept byte for byte with its stated payable amount and the official findings named by rule id', () => {
    for (const { name } of cen) {
      const { xml, document, ubl } = receivedAs(name);
      expect({ name, ubl }).toEqual({ name, ubl: envelopedPayload(xml).trim() });
      expect({ name, payable: document.totals?.payable }).toEqual({
        name,
        payable: shownAs(totalsWritten(xml).payable),
      });
      for (const finding of [...document.received.validation.errors, ...document.received.validation.warnings])
        expect(finding.rule).toMatch(/^[A-Za-z][\w.-]*$/);
    }
  });
});

describe('every example received, as CII', () => {
  it('when each is asked for as CII, then it states the amount due, VAT and total without VAT its UBL states', async () => {
    for (const { name, xml, document } of received) {
      const cii = await callAs(receiver.liveKey, `/v1/documents/${document.id}/cii`, { host: LIVE });
      const written = totalsWritten(xml);
      const stated = ciiTotalsWritten(cii.text);
      expect({
        name,
        status: cii.status,
        payable: stated.payable,
        tax: stated.tax,
        tax_exclusive: stated.tax_exclusive,
      }).toEqual({
        name,
        status: 200,
        payable: written.payable,
        tax: written.tax,
        tax_exclusive: written.tax_exclusive,
      });
    }
  });
});
