import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent, headers and body, with quoted-printable soft breaks undone. */
  data: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on this machine for the tests, without TLS or sign-in. `port` reuses a port
 * (an SMTP server that comes back); `refuse` answers 550 to those recipients.
 */
export async function startSmtp(options: { port?: number; refuse?: string[] } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuse?.includes(address.address)) {
        const error = Object.assign(new Error('Mailbox unavailable: no such user here'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Quoted-printable may wrap long lines: undo the soft breaks so that a link reads whole.
          data: Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on now (an SMTP server that is down), which a later startSmtp can take. */
export async function unusedPort(): Promise<number> {
  const probe = await startSmtp();
  await probe.close();
  return probe.port;
}
