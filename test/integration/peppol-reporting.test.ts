import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  INVOICE_RESPONSE,
  MESSAGE_LEVEL_STATUS,
  PEPPOL_AS4,
} from '../../domain/peppol/capabilities';
import { endUserStatistics, endUserStatisticsReportXml } from '../../domain/reporting/eusr';
import { monthOf, type ReportingItem } from '../../domain/reporting/items';
import { transactionStatistics, transactionStatisticsReportXml } from '../../domain/reporting/tsr';
import { officialValidator } from '../../platform/official-validator';
import { itemsOfMonth, recordReportingItem } from '../../services/reporting/items';
import { PEPPOL_REPORTING_SCHEDULE, peppolReportingWorkflowId } from '../../workflows/shared';
import { validFixtures } from '../fixtures/documents';
import { withStore } from '../support/accounts';
import { LIVE, liveSender, postLive, waitForStatus } from '../support/documents';
import { ops, opsWith } from '../support/ops';
import { liveReceiver, sendToUs, standInArrivals, ublTo } from '../support/receiving';
import { until } from '../support/until';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';

/**
 * Peppol reporting on the local network: live documents sent and received are
 * recorded as reporting items; the month's TSR and EUSR built from them are
 * valid under the official rules and count exactly this test's transactions;
 * `ops reporting --send` sends a month's reports by AS4 to the reporting
 * receiver once, and the monthly schedule exists.
 */

const temporal = sharedTemporalClient();
const invoice = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const OUR_SEAT = 'PBE000001';
const STAND_IN_SEAT = 'PBE000002';

const itemsOf = async (month: string, endUsers: string[]) =>
  withStore(async (store) => {
    const items: ReportingItem[] = [];
    for await (const item of itemsOfMonth(store, month)) if (endUsers.includes(item.endUserId)) items.push(item);
    return items;
  });

/** A live sender, funded, whose two invoices (REP-1, REP-2) are delivered on the local network. */
async function sendTwoLiveInvoices() {
  const sender = await liveSender();
  expect((await ops('credits', 'add', sender.workspaceId, '5.00')).code).toBe(0);
  const sent = [];
  for (const number of ['REP-1', 'REP-2']) {
    const posted = await postLive(sender.liveKey, { ...invoice, company_id: sender.companyId, number });
    expect(posted.status).toBe(202);
    sent.push(
      await waitForStatus(sender.liveKey, posted.body.id, sender.companyId, ['delivered', 'failed'], 60_000, {
        host: LIVE,
      }),
    );
  }
  expect(sent.map((document) => document.status)).toEqual(['delivered', 'delivered']);
  return sender;
}

/** A live receiver, sent one invoice twice by the stand-in. */
async function receiveOneMessageTwice() {
  const receiver = await liveReceiver();
  const messageId = `${randomUUID()}@reporting-test`;
  await sendToUs(ublTo('standard rate S, one line', receiver.peppolId), receiver.peppolId, messageId);
  // The same message again (a sender that missed our receipt): still one transaction.
  await sendToUs(ublTo('standard rate S, one line', receiver.peppolId), receiver.peppolId, messageId);
  return receiver;
}

/**
 * The month's reporting items of the two companies: one for each invoice sent, one for the invoice received (once),
 * and one for each MLS that came back.
 */
async function expectOneItemPerTransaction(month: string, senderId: string, receiverId: string) {
  const endUsers = [senderId, receiverId];
  // Each live send comes back as the Message Level Status our envelope asks for, a Peppol transaction of ours too.
  // (The stand-in buyer's Invoice Response goes to the invoice's seller, a participant of the stand-in's own.)
  const items = await until(
    'the reporting items',
    () => itemsOf(month, endUsers),
    (found) => found.length >= 5,
  );
  expect(items).toHaveLength(5);
  const receiverCountry = await withStore(
    async (store) => (await store.companies.findById(receiverId, { country: 1 }).lean())!.country,
  );
  const billing = items.filter((item) => item.documentType.value === BIS_BILLING_INVOICE.value);
  expect(billing.filter((item) => item.direction === 'sending')).toEqual([
    expect.objectContaining({
      c2Id: OUR_SEAT,
      c3Id: STAND_IN_SEAT,
      documentType: BIS_BILLING_INVOICE,
      process: BIS_BILLING_PROCESS,
      transportProtocol: PEPPOL_AS4,
      c1Country: 'BE',
      c4Country: null,
      endUserId: senderId,
    }),
    expect.objectContaining({ endUserId: senderId }),
  ]);
  expect(billing.filter((item) => item.direction === 'receiving')).toEqual([
    expect.objectContaining({
      c2Id: STAND_IN_SEAT,
      c3Id: OUR_SEAT,
      documentType: BIS_BILLING_INVOICE,
      c1Country: 'BE',
      c4Country: receiverCountry,
      endUserId: receiverId,
    }),
  ]);
  const replies = items.filter((item) => item.documentType.value !== BIS_BILLING_INVOICE.value);
  expect(
    replies
      .map(
        (item) =>
          `${item.direction} ${item.documentType.value === MESSAGE_LEVEL_STATUS.documentType.value ? 'mls' : item.documentType.value === INVOICE_RESPONSE.documentType.value ? 'invoice_response' : item.documentType.value} ${item.endUserId}`,
      )
      .sort(),
  ).toEqual([`receiving mls ${senderId}`, `receiving mls ${senderId}`]);
  return items;
}

/** The reports of these items: exactly their numbers, valid under the official rules. */
async function expectReportsCountingExactlyThem(month: string, items: ReportingItem[]): Promise<void> {
  const validator = officialValidator(sharedStack().validatorUrl);
  const tsr = transactionStatistics(items);
  expect(tsr.total).toEqual({ incoming: 3, outgoing: 2 });
  // The MLS counts for transactions, not for end users (the MLS operational guideline).
  const eusr = endUserStatistics(items);
  expect(eusr.fullSet).toEqual({ sending: 1, receiving: 1, sendingOrReceiving: 2 });
  for (const [kind, xml] of [
    ['tsr', transactionStatisticsReportXml(month, OUR_SEAT, tsr)],
    ['eusr', endUserStatisticsReportXml(month, OUR_SEAT, eusr)],
  ] as const) {
    const report = await validator.validate(xml);
    expect(report).toMatchObject({ document_type: kind, valid: true, problem: null });
  }
}

/** The whole month (other tests' transactions too), as an operator builds it: valid, and at least these. */
async function expectTheMonthBuiltByOps(month: string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-reporting-'));
  try {
    // The test stack's validator and access point, not the default ports of `npm start`.
    const built = await opsWith(
      { VALIDATOR_URL: sharedStack().validatorUrl, ACCESS_POINT_URL: sharedStack().accessPointUrl },
      'reporting',
      month,
      '--out',
      dir,
    );
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^TSR valid under eu\.peppol\.reporting:tsr:1\.0\.\d+$/m);
    expect(built.stdout).toMatch(/^EUSR valid under eu\.peppol\.reporting:eusr:1\.1\.\d+$/m);
    expect(built.stdout).toContain('not sent yet');
    const written = await readFile(path.join(dir, `peppol-tsr-${month}.xml`), 'utf8');
    const incoming = Number(/<Total>\s*<Incoming>(\d+)<\/Incoming>/.exec(written)![1]);
    expect(incoming).toBeGreaterThanOrEqual(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Peppol reporting', () => {
  it('when live documents are sent and received, then each is one reporting item, and the reports built from them are valid and count exactly them', async () => {
    const sender = await sendTwoLiveInvoices();
    const receiver = await receiveOneMessageTwice();
    const month = monthOf(new Date());
    const items = await expectOneItemPerTransaction(month, sender.companyId, receiver.companyId);
    await expectReportsCountingExactlyThem(month, items);
    await expectTheMonthBuiltByOps(month);
  }, 240_000);

  it('when a month is sent with ops reporting --send, then both reports arrive at the reporting receiver by AS4, once, and a second send is refused as done', async () => {
    // A month of its own, so its numbers are this test's alone.
    const month = '2021-03';
    const items: (ReportingItem & { as4MessageId: string })[] = [
      {
        as4MessageId: `${randomUUID()}@test`,
        exchangedAt: new Date('2021-03-04T10:00:00Z'),
        direction: 'sending',
        c2Id: OUR_SEAT,
        c3Id: STAND_IN_SEAT,
        documentType: BIS_BILLING_INVOICE,
        process: BIS_BILLING_PROCESS,
        transportProtocol: PEPPOL_AS4,
        c1Country: 'BE',
        c4Country: null,
        endUserId: 'com_reporting_a',
      },
      {
        as4MessageId: `${randomUUID()}@test`,
        exchangedAt: new Date('2021-03-20T10:00:00Z'),
        direction: 'receiving',
        c2Id: 'PNO000123',
        c3Id: OUR_SEAT,
        documentType: BIS_BILLING_INVOICE,
        process: BIS_BILLING_PROCESS,
        transportProtocol: PEPPOL_AS4,
        c1Country: 'NO',
        c4Country: 'BE',
        endUserId: 'com_reporting_b',
      },
    ];
    await withStore(async (store) => {
      for (const item of items) expect(await recordReportingItem(store, item)).toBe(true);
      // Recorded again (a retried activity): nothing more.
      expect(await recordReportingItem(store, items[0]!)).toBe(false);
    });

    const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-reporting-'));
    try {
      const first = await ops('reporting', month, '--send', '--out', dir);
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(
        /^sent to 9925:be0848934496: TSR \S+, EUSR \S+ \(workflow peppol-reporting-2021-03\)$/m,
      );
      expect(first.stdout).toContain('Transaction Statistics Report: 1 incoming, 1 outgoing');
      expect(first.stdout).toContain(
        'End User Statistics Report: 1 sending, 1 receiving, 2 sending or receiving end users',
      );

      for (const kind of ['tsr', 'eusr']) {
        const [arrival] = await standInArrivals(`peppol-reporting-${month}-${kind}@einvoice`);
        expect(arrival?.receiverId.toLowerCase()).toContain('9925:be0848934496');
        expect(arrival?.documentTypeId).toContain(
          kind === 'tsr' ? 'TransactionStatisticsReport' : 'EndUserStatisticsReport',
        );
        const sbd = await (
          await fetch(
            `${sharedStack().peppol.receivingAccessPoint}/inbox/${encodeURIComponent(arrival!.messageId)}.xml`,
          )
        ).text();
        // What arrived is what the operator got written, and the official rules take it.
        const written = await readFile(path.join(dir, `peppol-${kind}-${month}.xml`), 'utf8');
        expect(sbd).toContain(written.replace(/^<\?xml[^?]*\?>\n?/, '').trim());
      }

      const again = await ops('reporting', month, '--send', '--out', dir);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /^the reports for 2021-03 were sent already, to 9925:be0848934496 \(claimed by ops, .*\); not sent again$/m,
      );
      expect(await standInArrivals(`peppol-reporting-${month}-tsr@einvoice`)).toHaveLength(1);

      const described = await temporal().workflow.getHandle(peppolReportingWorkflowId(month)).describe();
      expect(described.status.name).toBe('COMPLETED');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('when a month not over is sent with ops reporting --send, then the refusal says why, not only that an activity failed', async () => {
    const thisMonth = new Date().toISOString().slice(0, 7);
    const refused = await ops('reporting', thisMonth, '--send');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `${thisMonth} has not ended yet; its reports are sent from the 1st of the next month`,
    );
  }, 120_000);

  it('the monthly schedule exists: the previous month, on day 2 at 06:07 UTC', async () => {
    const schedule = await temporal().schedule.getHandle(PEPPOL_REPORTING_SCHEDULE).describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monthlyPeppolReportingWorkflow' });
    expect(schedule.spec.calendars).toEqual([
      expect.objectContaining({
        dayOfMonth: [{ start: 2, end: 2, step: 1 }],
        hour: [{ start: 6, end: 6, step: 1 }],
        minute: [{ start: 7, end: 7, step: 1 }],
      }),
    ]);
  });
});
