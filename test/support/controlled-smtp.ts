import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  messageId: string;
  to: string[];
  raw: string;
}

/** A message whose answer the server holds until the test releases it. */
export interface Hold {
  /** Resolves when the whole message is in and its answer is being held. */
  arrived: Promise<void>;
  release(): void;
}

/** The server's side of a hold. */
interface HeldAnswer {
  arrive(): void;
  released: Promise<void>;
}

export interface Session {
  id: string;
  openedAt: number;
  closedAt: number | null;
}

/**
 * A real SMTP server on a real socket that a test controls: it can go away
 * and come back on the same port, it refuses one recipient with a permanent
 * 550, and it can hold its answer to a message (a slow server, or until the test lets it go). It records
 * every session and every message it accepted (answered 250).
 */
export class ControlledSmtp {
  readonly received: ReceivedMessage[] = [];
  readonly sessions: Session[] = [];
  private server: SMTPServer | undefined;
  private holds = new Map<string, HeldAnswer>();
  port = 0;

  constructor(private readonly refusedRecipient: string) {}

  /** The next message to `recipient` gets its answer only once the test releases it (if the client is still there). */
  holdNextMessageTo(recipient: string): Hold {
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    this.holds.set(recipient, { arrive, released: new Promise((resolve) => (release = resolve)) });
    return { arrived, release };
  }

  /** The next message to `recipient` gets its answer only after `ms` (if the client is still there). */
  stallNextMessageTo(recipient: string, ms: number): void {
    const hold = this.holdNextMessageTo(recipient);
    void hold.arrived.then(() => setTimeout(() => hold.release(), ms).unref());
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
          const hold = to.map((recipient) => this.holds.get(recipient)).find((candidate) => candidate !== undefined);
          for (const recipient of to) this.holds.delete(recipient);
          const accept = () => {
            const record = this.sessions.find((candidate) => candidate.id === session.id);
            if (record?.closedAt !== null) return;
            this.received.push({ messageId, to, raw });
            callback();
          };
          if (hold === undefined) accept();
          else {
            hold.arrive();
            void hold.released.then(accept);
          }
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
