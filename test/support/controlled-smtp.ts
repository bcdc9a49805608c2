import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  messageId: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a real socket that a test controls: it can go away
 * and come back on the same port, and it refuses one recipient with a
 * permanent 550, so delivery failures can be driven end to end.
 */
export class ControlledSmtp {
  readonly received: ReceivedMessage[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  constructor(private readonly refusedRecipient: string) {}

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
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
          this.received.push({ messageId, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
          callback();
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
