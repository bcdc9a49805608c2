import { open, rm } from 'node:fs/promises';
import os from 'node:os';

import { Client, Connection } from '@temporalio/client';
import mongoose from 'mongoose';

import { escapeForTerminal } from '../domain/text';
import { BREAKER_THRESHOLD } from '../domain/webhook-breaker';
import { SecretBox } from '../domain/secret-box';
import { ConfigError } from '../platform/config';
import { readKyc, type KycSubmission } from '../services/kyc/state';
import { readKycDocument, resealKycContent } from '../services/kyc/content';
import {
  OperatorError,
  addCredits,
  existingWorkspace,
  operatorActor,
  setAccountRateLimit,
  setAccountStatus,
  setDocumentPrice,
  setSuspension,
  showCredits,
} from '../services/operator/workspaces';
import { participantProof, type CompanyIdentity } from '../domain/kyc/participant-proof';
import type { Company } from '../services/companies';
import { decide, decideParticipant, listSubmissions } from '../services/kyc/operator';
import { inspectDelivery, type DeliveryInspection } from '../services/operator/webhooks';
import { identityOf, pendingParticipantReviews } from '../services/receiving/participant-review';
import { STUCK_AFTER_MS, stuckWork, type StuckWork } from '../services/stuck-work';
import { unmatchedMessageLevelStatuses } from '../services/receiving/service-provider';
import { syncWorkspaceReceiving } from '../services/receiving/sync';
import { loadStackConfig, type StackConfig } from '../stack/config';
import { KYC_KEY_FILE, readKeyFile } from '../stack/keys';
import { createStore, type Store } from '../store';
import { commandLine, textOption, textOptions, UsageError, type CommandOptions } from './arguments';
import { networkRespond } from './network-respond';
import { networkSend, NetworkSendError } from './network-send';
import { doing, done } from './progress';
import { reportingCommand } from './reporting';

/**
 * `npm run --silent ops -- <command>`: what an operator does by hand. It
 * talks to the same database and Temporal as the service: MONGODB_URI and
 * TEMPORAL_ADDRESS, or the embedded stack's (`npm start`) by default, and
 * opens KYC content with KYC_ENCRYPTION_KEY (and _PREVIOUS), or the key the
 * embedded stack made. The operator's name in the audit trail is OPERATOR, else the login name.
 * The network commands drive the embedded stack's local Peppol network stand-in (its ports from the
 * same stack variables `npm start` reads) and need no database.
 * A refusal is said on stderr (one line, then what it lists, if anything) with exit code 1; a wrong command, 2.
 */

const USAGE = `usage: npm run --silent ops -- <command>   (options before or after the arguments; -- ends them)
  kyc list [--status pending|approved|rejected]  KYC submissions, oldest first
  kyc show <workspace>                    the workspace's KYC state, documents and companies
  kyc document <document> <file>          write a KYC document's content to a new file (readable by you only)
  kyc reseal                              seal every KYC document under KYC_ENCRYPTION_KEY (after a rotation)
  kyc approve <workspace>                 approve its pending review (signals the review workflow)
  kyc reject <workspace> <reason>         reject it, with the reason the customer sees
  participants                            live companies whose Peppol id waits for a review before it is registered
                                          (not proven to be theirs: see docs/kyc-and-credits.md), oldest first
  participants approve <company>          approve the Peppol id under review (signals its receiving workflow)
  participants reject <company> <reason>  refuse it, with the reason the customer sees
  credits add <workspace> <amount>        top up a workspace's credits (EUR, e.g. 25.00)
  credits show <workspace>                balance, ledger total and whether they agree
  credits price <workspace> <amount|default>  the workspace's own price of a live document
  workspace suspend <workspace> <reason>  stop its live sending (403 workspace_suspended)
  workspace resume <workspace> <reason>   let it send live again
  account disable <account>               refuse its keys (403 disabled_account)
  account enable <account>                accept its keys again
  account rate-limit <account> <n|default>
                                          requests per minute for each of its keys (the account: twice it)
  reporting <YYYY-MM> [--send] [--out <dir>]
                                          the month's Peppol TSR and EUSR: built, validated by the official rules,
                                          summed up and written to <dir> (default DATA_DIR/reports); --send sends them by AS4 to
                                          the reporting receiver, once per month (the schedule's guard)
  mls unmatched                           Message Level Status received for our service provider that named none of
                                          our sent documents (kept, newest first)
  webhook delivery <delivery>             a webhook delivery (whd_…): its status, every attempt, its webhook and its
                                          endpoint's workflow (to open in the Temporal Web UI) with its breaker
  stuck [--older-than <seconds>]          documents (queued, sending, receiving), Invoice Responses being sent and webhook
                                          deliveries pending that have not moved for longer than that (default ${STUCK_AFTER_MS / 1000}),
                                          longest waiting first, each with its workflow id to open in the Temporal Web UI
  network send <receiver> <file.xml> [--via stand-in|oxalis] [--message-id <id>] [--mls always|failure [--mls-to 0242:<SPID>]]
                                          the local Peppol network stand-in sends a UBL document by AS4 to the
                                          receiver's access point; prints the receipt or the AS4 error; --via oxalis
                                          sends with the independent access point (Oxalis, its own message id) instead
                                          of the stand-in's (phase4); --mls asks for a Message Level Status (SBDH
                                          MLS_TYPE ALWAYS_SEND or FAILURE_ONLY, MLS_TO)
  network respond <document> <code> [--reason CODE[:text]] [--action CODE[:text]] [--note text]
                                          the buyer of an invoice or credit note the stand-in received (its number, or
                                          the AS4 message id) sends its seller an Invoice Response (AB IP UQ CA RE AP PD)`;

interface Context {
  store: Store;
  stack: StackConfig;
  operator: ReturnType<typeof operatorActor>;
  /** Connects to Temporal on first use: only the review commands need it. */
  temporal: () => Promise<Client>;
  /** Opens and seals KYC content; only the content commands need its key. */
  kycBox: () => Promise<SecretBox>;
}

/** A command's arguments, then its options (ops/arguments.ts: given before, after or between them). */
type Command = (context: Context, args: string[], options: CommandOptions) => Promise<string>;

const needs = (args: string[], count: number) => {
  if (args.length < count) throw new UsageError(`expected ${count} argument${count === 1 ? '' : 's'}`);
  return args;
};

/**
 * What the CLI prints comes partly from customers (a legal name, a filename):
 * every cell of a table is escaped on its own (domain/text.ts), so a value
 * cannot end its row and forge another; everything else is escaped line by
 * line on its way out (JSON already escapes line breaks, not bidi overrides).
 */
const tableRow = (...cells: string[]) => cells.map(escapeForTerminal).join('  ');
const forTerminal = (output: string) => output.split('\n').map(escapeForTerminal).join('\n');

const submissionRow = (submission: KycSubmission) =>
  tableRow(
    submission.workspace_id,
    submission.status.padEnd(8),
    `#${submission.number}`,
    submission.submitted_at.toISOString(),
    `${submission.legal_name} (${submission.enterprise_number})`,
  );

const identityLine = (identity: CompanyIdentity) =>
  `name ${identity.name ?? '-'}, peppol_id ${identity.peppol_id ?? '-'}, company_registration_id ${identity.company_registration_id ?? '-'}, tax_id ${identity.tax_id ?? '-'}`;

/** Whether a company's Peppol id is written as its own registration id or VAT number (then the registry extract backs it), or is some other id. */
function peppolIdIs(company: Company): string | null {
  if (!company.peppol_id) return null;
  const proof = participantProof(company.peppol_id, { ...identityOf(company), peppol_id: null });
  return proof?.by === 'company_registration_id' || proof?.by === 'tax_id'
    ? `its ${proof.by} (${proof.register})`
    : 'not its registration id or VAT number: check the documents back it';
}

/** `--older-than <seconds>`, a whole number of seconds; the default threshold without it. */
function olderThanMs(olderThan: string | undefined): number {
  if (olderThan === undefined) return STUCK_AFTER_MS;
  const seconds = Number(olderThan);
  if (olderThan.trim() === '' || !Number.isInteger(seconds) || seconds < 0)
    throw new UsageError('stuck takes --older-than <seconds>, a whole number');
  return seconds * 1000;
}

const waited = (since: Date) => {
  const minutes = Math.floor((Date.now() - since.getTime()) / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

function stuckReport({ items, counts }: StuckWork, olderThan: number): string {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const summary =
    `${counts.document} documents, ${counts.invoice_response} Invoice Responses, ${counts.mls} Message Level Statuses, ${counts.webhook_delivery} webhook deliveries ` +
    `have not moved for over ${olderThan / 1000} s${total > items.length ? ` (the ${items.length} longest waiting listed)` : ''}`;
  if (total === 0) return summary;
  const rows = items.map((item) =>
    tableRow(
      item.kind.padEnd(16),
      item.id,
      item.status.padEnd(9),
      item.since.toISOString(),
      waited(item.since).padStart(11),
      item.workflowId,
      item.workspaceId,
    ),
  );
  return [...rows, `${summary}; open each workflow id in the Temporal Web UI`].join('\n');
}

function deliveryReport({ delivery, webhook, workflowId, endpoint }: DeliveryInspection): string {
  const webhookState = !webhook
    ? 'gone'
    : webhook.deleted_at
      ? 'deleted'
      : webhook.enabled
        ? 'enabled'
        : `disabled${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`;
  const breaker = endpoint?.breaker;
  const pause =
    breaker?.pausedUntil && breaker.pausedUntil > Date.now()
      ? `paused until ${new Date(breaker.pausedUntil).toISOString()}`
      : breaker && breaker.failures >= BREAKER_THRESHOLD
        ? 'half-open (probing)'
        : 'closed';
  return [
    tableRow(
      'delivery',
      delivery._id,
      delivery.event_type,
      delivery.event_id,
      'to',
      delivery.webhook_id,
      webhook?.url ?? '-',
      `(${webhookState})`,
    ),
    tableRow(
      'status',
      delivery.status,
      delivery.status === 'pending' && delivery.next_attempt_at
        ? `next attempt due ${delivery.next_attempt_at.toISOString()}`
        : '',
    ),
    ...delivery.attempts.map((attempt) =>
      tableRow(
        `attempt ${attempt.number}`,
        attempt.at.toISOString(),
        attempt.outcome.padEnd(9),
        String(attempt.status_code ?? '-'),
        `${Math.round(attempt.duration_ms)} ms`,
        attempt.error ?? '',
        attempt.response_excerpt ? JSON.stringify(attempt.response_excerpt) : '',
      ),
    ),
    tableRow(
      'endpoint',
      workflowId,
      endpoint && breaker
        ? `running; breaker ${pause}, ${breaker.failures} failed in a row`
        : 'no open run (its webhook deleted or disabled, or nothing to deliver yet)',
    ),
  ].join('\n');
}

const COMMANDS: Record<string, Command> = {
  'kyc list': async ({ store }, _args, options) => {
    const submissions = await listSubmissions(store, textOption(options, 'status'));
    return submissions.length === 0 ? 'no submissions' : submissions.map(submissionRow).join('\n');
  },
  'kyc show': async ({ store }, args) => {
    const workspaceId = needs(args, 1)[0]!;
    await existingWorkspace(store, workspaceId);
    const { status, submission, documents, companies } = await readKyc(store, workspaceId);
    return JSON.stringify(
      {
        status,
        submission,
        documents: documents.map(({ _id, doc_type, filename, mime_type, size_bytes }) => ({
          id: _id,
          doc_type,
          filename,
          mime_type,
          size_bytes,
        })),
        companies: companies.map((company) => ({
          id: company._id,
          name: company.name,
          country: company.country,
          peppol_id: company.peppol_id ?? null,
          company_registration_id: company.company_registration_id ?? null,
          tax_id: company.tax_id ?? null,
          // What approving vouches for: whether the Peppol id is the company's own number on file, or an id only the documents can back.
          peppol_id_is: peppolIdIs(company),
          // Whether it receives, and why not (an id another access point registers shows here after approval).
          receiving: company.receiving
            ? { status: company.receiving.status, error_message: company.receiving.error_message ?? null }
            : null,
        })),
      },
      null,
      2,
    );
  },
  'kyc document': async ({ store, operator, kycBox }, args) => {
    const [documentId, file] = needs(args, 2);
    // A new file, for its owner only (the content is an identity document), made before the content is read.
    const output = await open(file!, 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
      throw new OperatorError(err.code === 'EEXIST' ? `${file!} exists; name a new file` : err.message);
    });
    try {
      const { document, bytes } = await readKycDocument(store, await kycBox(), operator, documentId!);
      await output.writeFile(bytes);
      return `${file!}: ${document.doc_type} ${document.filename} (${document.mime_type}, ${document.size_bytes} bytes, SHA-256 checked)`;
    } catch (err) {
      await rm(file!, { force: true });
      throw err;
    } finally {
      await output.close();
    }
  },
  'kyc reseal': async ({ store, operator, kycBox }) => {
    const box = await kycBox();
    const { resealed, current, left } = await resealKycContent(store, box, operator);
    const summary = `KYC content under key ${box.keyId}: ${resealed} sealed now, ${current} already`;
    if (left.length === 0) return summary;
    throw new OperatorError(
      `${summary}; ${left.length} left:\n${left.map(({ id, reason }) => `  ${id}: ${reason}`).join('\n')}`,
    );
  },
  'kyc approve': async ({ store, operator, temporal }, args) => {
    const [workspace] = needs(args, 1);
    const client = await temporal();
    doing(`signalling the review workflow of ${workspace!} and waiting until it records the decision`);
    const recorded = await decide(store, client, workspace!, { decision: 'approve', operator: operator.accountId });
    return `workspace ${recorded.workspace_id}: ${recorded.status}`;
  },
  'kyc reject': async ({ store, operator, temporal }, args) => {
    const [workspace, ...reason] = needs(args, 2);
    const client = await temporal();
    doing(`signalling the review workflow of ${workspace!} and waiting until it records the decision`);
    const recorded = await decide(store, client, workspace!, {
      decision: 'reject',
      reason: reason.join(' '),
      operator: operator.accountId,
    });
    return `workspace ${recorded.workspace_id}: ${recorded.status} (${recorded.reject_reason ?? ''})`;
  },
  participants: async ({ store }) => {
    const pending = await pendingParticipantReviews(store);
    if (pending.length === 0) return 'no participant reviews pending';
    return pending
      .map((review) =>
        [
          tableRow(review.company_id, review.workspace_id, review.requested_at.toISOString(), review.name),
          tableRow('  under review:', identityLine(review.identity)),
          tableRow(
            '  verified:    ',
            review.verified ? identityLine(review.verified) : 'nothing (not part of an approved KYC review)',
          ),
          tableRow('  why:         ', review.why),
        ].join('\n'),
      )
      .join('\n');
  },
  'participants approve': async ({ store, operator, temporal }, args) => {
    const [company] = needs(args, 1);
    const client = await temporal();
    doing(`signalling the receiving workflow of ${company!} and waiting until it records the decision`);
    const decided = await decideParticipant(store, client, company!, {
      decision: 'approve',
      operator: operator.accountId,
    });
    return `company ${args[0]!}: ${decided.peppol_id ?? ''} ${decided.status}; its receiving workflow registers it`;
  },
  'participants reject': async ({ store, operator, temporal }, args) => {
    const [company, ...reason] = needs(args, 2);
    const client = await temporal();
    doing(`signalling the receiving workflow of ${company!} and waiting until it records the decision`);
    const decided = await decideParticipant(store, client, company!, {
      decision: 'reject',
      reason: reason.join(' '),
      operator: operator.accountId,
    });
    return `company ${company!}: ${decided.peppol_id ?? ''} ${decided.status}`;
  },
  'credits add': async ({ store, operator }, args) => {
    const [workspace, amount] = needs(args, 2);
    return `balance of ${workspace!}: ${await addCredits(store, operator, workspace!, amount!)} EUR`;
  },
  stuck: async ({ store }, _args, options) => {
    const olderThan = olderThanMs(textOption(options, 'older-than'));
    return stuckReport(await stuckWork(store, { olderThanMs: olderThan }), olderThan);
  },
  'webhook delivery': async ({ store, temporal }, args) =>
    deliveryReport(await inspectDelivery(store, await temporal(), needs(args, 1)[0]!)),
  'mls unmatched': async ({ store }) => {
    const rows = await unmatchedMessageLevelStatuses(store);
    return rows.length === 0 ? 'no unmatched Message Level Status' : rows.map((row) => JSON.stringify(row)).join('\n');
  },
  'credits show': async ({ store }, args) => JSON.stringify(await showCredits(store, needs(args, 1)[0]!), null, 2),
  'credits price': async ({ store, operator }, args) => {
    const [workspace, price] = needs(args, 2);
    await setDocumentPrice(store, operator, workspace!, price!);
    return `live documents of ${workspace!} cost ${price === 'default' ? 'the default price' : `${price!} EUR`}`;
  },
  'workspace suspend': async ({ store, operator, temporal }, args) => {
    const [workspace, ...reason] = needs(args, 2);
    await setSuspension(store, operator, workspace!, true, reason.join(' '));
    const companies = await syncWorkspaceReceiving(store, await temporal(), workspace!);
    return `workspace ${workspace!} suspended; ${companies} companies are being unregistered as Peppol receivers`;
  },
  'workspace resume': async ({ store, operator, temporal }, args) => {
    const [workspace, ...reason] = needs(args, 2);
    await setSuspension(store, operator, workspace!, false, reason.join(' '));
    const companies = await syncWorkspaceReceiving(store, await temporal(), workspace!);
    return `workspace ${workspace!} resumed; ${companies} companies are being registered as Peppol receivers again (when live)`;
  },
  'account disable': async ({ store, operator }, args) => {
    await setAccountStatus(store, operator, needs(args, 1)[0]!, 'disabled');
    return `account ${args[0]!} disabled`;
  },
  reporting: async ({ store, temporal, stack }, args, options) =>
    reportingCommand({ store, temporal, stack }, needs(args, 1)[0]!, {
      send: options.send === true,
      out: textOption(options, 'out'),
    }),
  'account enable': async ({ store, operator }, args) => {
    await setAccountStatus(store, operator, needs(args, 1)[0]!, 'active');
    return `account ${args[0]!} enabled`;
  },
  'account rate-limit': async ({ store, operator }, args) => {
    const [account, value] = needs(args, 2);
    await setAccountRateLimit(store, operator, account!, value === 'default' ? null : Number(value));
    return `account ${account!}: ${value === 'default' ? "the environment's default rate limit" : `${value} requests per minute per key`}`;
  },
};

/** Commands on the running embedded stack's local Peppol network: no database, no Temporal. */
const NETWORK_COMMANDS: Record<
  string,
  (stack: StackConfig, args: string[], options: CommandOptions) => Promise<string>
> = {
  'network send': async (stack, args, options) => {
    const [receiver, file, ...rest] = needs(args, 2);
    if (rest.length > 0) throw new UsageError(`unexpected: ${rest.join(' ')}`);
    const mls = textOption(options, 'mls');
    if (mls !== undefined && mls !== 'always' && mls !== 'failure')
      throw new UsageError('--mls takes always or failure');
    const mlsTo = textOption(options, 'mls-to');
    if (mlsTo !== undefined && mls === undefined) throw new UsageError('--mls-to needs --mls');
    const messageId = textOption(options, 'message-id');
    const via = textOption(options, 'via') ?? 'stand-in';
    if (via !== 'stand-in' && via !== 'oxalis') throw new UsageError('--via takes stand-in or oxalis');
    if (via === 'oxalis' && messageId)
      throw new UsageError('--message-id is for the stand-in access point: Oxalis chooses its own message ids');
    return networkSend(stack, {
      receiver: receiver!,
      file: file!,
      via,
      ...(messageId && { messageId }),
      ...(mls && { mls: { type: mls === 'always' ? 'ALWAYS_SEND' : 'FAILURE_ONLY', ...(mlsTo && { to: mlsTo }) } }),
    });
  },
  'network respond': async (stack, args, options) => {
    const [document, code, ...rest] = needs(args, 2);
    if (rest.length > 0) throw new UsageError(`unexpected: ${rest.join(' ')}`);
    return networkRespond(stack, {
      document: document!,
      code: code!,
      reasons: textOptions(options, 'reason'),
      actions: textOptions(options, 'action'),
      note: textOption(options, 'note'),
    });
  },
};

async function main(argv: string[]): Promise<number> {
  if (['help', '--help', '-h'].includes(argv[0] ?? '')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // A command is one word (`reporting 2026-10`) or two (`kyc list`).
  const twoWords = argv.slice(0, 2).join(' ');
  const name = COMMANDS[twoWords] || NETWORK_COMMANDS[twoWords] ? twoWords : (argv[0] ?? '');
  const command = COMMANDS[name];
  const networkCommand = NETWORK_COMMANDS[name];
  if (!command && !networkCommand) {
    process.stderr.write(`${argv.length ? `unknown command: ${argv.join(' ')}\n` : ''}${USAGE}\n`);
    return 2;
  }
  const { args, options } = commandLine(name, argv.slice(name.split(' ').length));
  const stack = loadStackConfig();
  if (networkCommand) {
    doing('sending by AS4 on the local Peppol network and waiting for the receipt');
    process.stdout.write(`${forTerminal(await networkCommand(stack, args, options))}\n`);
    return 0;
  }
  doing('connecting to the database');
  const db = await mongoose
    .createConnection(process.env.MONGODB_URI || `mongodb://127.0.0.1:${stack.FERRETDB_PORT}/einvoice`, {
      serverSelectionTimeoutMS: 5_000,
    })
    .asPromise();
  let connection: Connection | undefined;
  const temporal = async () => {
    doing('connecting to Temporal');
    connection ??= await Connection.connect({
      address: process.env.TEMPORAL_ADDRESS || `127.0.0.1:${stack.TEMPORAL_PORT}`,
      connectTimeout: 5_000,
    });
    return new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE || stack.TEMPORAL_NAMESPACE });
  };
  try {
    const operator = operatorActor(process.env.OPERATOR || os.userInfo().username);
    doing(`working on ${name}`);
    process.stdout.write(
      `${forTerminal(await command!({ store: createStore(db), stack, operator, temporal, kycBox: () => kycBox(stack) }, args, options))}\n`,
    );
    return 0;
  } finally {
    await db.close();
    await connection?.close();
  }
}

async function kycBox(stack: StackConfig): Promise<SecretBox> {
  const key = stack.KYC_ENCRYPTION_KEY ?? (await readKeyFile(stack.KEYS_DIR, KYC_KEY_FILE));
  if (!key)
    throw new ConfigError(
      `KYC_ENCRYPTION_KEY not set, and the embedded stack has made none in KEYS_DIR (${stack.KEYS_DIR})`,
    );
  return new SecretBox(key, stack.KYC_ENCRYPTION_KEY_PREVIOUS);
}

main(process.argv.slice(2)).then(
  (code) => {
    done();
    process.exit(code);
  },
  (err: unknown) => {
    done();
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      process.exit(2);
    }
    const known = err instanceof OperatorError || err instanceof ConfigError || err instanceof NetworkSendError;
    process.stderr.write(`ops: ${forTerminal(known ? err.message : String((err as Error)?.message ?? err))}\n`);
    process.exit(1);
  },
);
