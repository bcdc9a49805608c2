import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  messageId: string;
  to: string[];
  raw: string;
}

export interface Session {
  id: string;
  openedAt: number;
  closedAt: number | null;
}

/**
 * A real SMTP server on a real socket that a test controls: it can go away
 * and come back on the same port, it refuses one recipient with a permanent
 * 550, and it can hold its answer to a message (a slow server). It records
 * every session and every message it accepted (answered 250).
 */
export class ControlledSmtp {
  readonly received: ReceivedMessage[] = [];
  readonly sessions: Session[] = [];
  private server: SMTPServer | undefined;
  private stalls = new Map<string, number>();
  port = 0;

  constructor(private readonly refusedRecipient: string) {}

  /** The next message to `recipient` gets its answer only after `ms` (if the client is still there). */
  stallNextMessageTo(recipient: string, ms: number): void {
    this.stalls.set(recipient, ms);
  }

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onConnect: (session, callback) => {
        this.sessions.push({ id: session.id, openedAt: Date.now(), closedAt: null });
        callback();
      },
      onClose: (session) => {
        const record = this.sessions.find((candidate) => candidate.id === session.id);
        if (record) record.closedAt = Date.now();
      },
      onRcptTo: (address, _session, callback) => {
        if (address.address === this.refusedRecipient) {
          const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(raw)?.[1] ?? '';
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          const stall = to.map((recipient) => this.stalls.get(recipient)).find((ms) => ms !== undefined);
          for (const recipient of to) this.stalls.delete(recipient);
          const accept = () => {
            const record = this.sessions.find((candidate) => candidate.id === session.id);
            if (record?.closedAt !== null) return;
            this.received.push({ messageId, to, raw });
            callback();
          };
          if (stall === undefined) accept();
          else setTimeout(accept, stall).unref();
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  messagesTo(recipient: string): ReceivedMessage[] {
    return this.received.filter((message) => message.to.includes(recipient));
  }
}
