import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent, headers and body, with quoted-printable soft breaks undone. */
  data: string;
  /** The message exactly as sent. */
  raw: string;
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
          raw: Buffer.concat(chunks).toString('latin1'),
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

/** The bytes of quoted-printable text (soft line breaks dropped, =XX decoded). */
function quotedPrintable(text: string, underscoreIsSpace = false): Buffer {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < input.length; i += 1) {
    const char = input[i]!;
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(underscoreIsSpace && char === '_' ? 0x20 : input.charCodeAt(i));
  }
  return Buffer.from(bytes);
}

/** A header's value with its MIME encoded-words (RFC 2047, UTF-8) decoded; adjacent words join without the space between them. */
function decodeHeader(value: string): string {
  const words = /=\?[^?]+\?([BbQq])\?([^?]*)\?=/g;
  let out = '';
  let pending: Buffer[] = [];
  let last = 0;
  const flush = () => {
    out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (const match of value.matchAll(words)) {
    const between = value.slice(last, match.index);
    if (pending.length === 0 || between.trim() !== '') {
      flush();
      out += between;
    }
    pending.push(match[1]!.toUpperCase() === 'B' ? Buffer.from(match[2]!, 'base64') : quotedPrintable(match[2]!, true));
    last = match.index + match[0].length;
  }
  flush();
  return out + value.slice(last);
}

/** A received plain-text message as its reader sees it: the headers (names in lower case) decoded, the body in UTF-8. */
export function readMail(mail: ReceivedMail): { headers: Record<string, string>; subject: string; text: string } {
  const end = mail.raw.indexOf('\r\n\r\n');
  const head = mail.raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
  const body = mail.raw.slice(end + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeHeader(Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes = encoding === 'base64' ? Buffer.from(body, 'base64') : encoding === 'quoted-printable' ? quotedPrintable(body) : Buffer.from(body, 'latin1');
  return { headers, subject: headers.subject ?? '', text: bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/\n\.\n?$/, '\n') };
}
