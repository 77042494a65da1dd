import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerAddress } from 'smtp-server';
import type { DoorHold } from './door-hold';
import type { DoorAttempt } from './exactly-once';

export interface RecordedMessage {
  envelope: { from: string | undefined; to: string[] };
  /** As sent, with its angle brackets. */
  messageId: string | undefined;
  /** Every header line, keyed by lower-case name (the last one wins). */
  headers: Record<string, string>;
  subject: string | undefined;
  text: string | undefined;
  html: string | undefined;
  at: number;
}

/** Every message that reached DATA, accepted or refused. */
export interface RecordedDelivery {
  messageId: string | undefined;
  /** 'lost': accepted, but the sender was gone before it heard the 250 (see `answerHold`). */
  answer: 'accepted' | 'refused' | 'lost';
  code: number;
}

export interface SmtpSinkOptions {
  /**
   * Parse each message's body into its text and HTML parts (the default). Without, only the
   * header section is read: a benchmark counting thousands of messages by Message-ID then costs
   * the machine it shares with the product little more than the SMTP dialogue.
   */
  bodies?: boolean;
}

/**
 * A small SMTP server on 127.0.0.1 for tests: no TLS, no AUTH. Records each accepted message
 * (envelope, headers with Message-ID, subject, text and HTML parts). It can refuse the next N
 * messages with a temporary (4xx) or permanent (5xx) answer after DATA, refuse the next N
 * recipients at RCPT TO, hold the 250 for the message a shared `answerHold` picks until it is released,
 * and be stopped and started again on the same port.
 */
export class SmtpSink {
  readonly messages: RecordedMessage[] = [];
  readonly deliveries: RecordedDelivery[] = [];
  /** Client connections opened since the last reset. */
  connections = 0;
  private refuseMessages = 0;
  private refuseMessageCode = 451;
  private refuseRecipients = 0;
  private refuseRecipientCode = 550;
  private server: SMTPServer | null = null;
  private port = 0;
  private host = '127.0.0.1';
  /** Shared with the other fakes of a test: holds the answer to the call it picks. */
  answerHold: DoorHold | null = null;
  /** Sessions whose client connection closed, and who waits to hear it. */
  private readonly closedSessions = new Set<string>();
  private readonly closeWaiters = new Map<string, () => void>();

  constructor(private readonly options: SmtpSinkOptions = {}) {}

  /** Listens on `host` (0.0.0.0 for containers to reach it); `url` names the loopback address either way. */
  async start(port = this.port, host = this.host): Promise<string> {
    this.host = host;
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 1000,
      onConnect: (_session, callback) => {
        this.connections += 1;
        callback();
      },
      onRcptTo: (address, _session, callback) => this.onRcptTo(address, callback),
      onClose: (session) => {
        this.closedSessions.add(session.id);
        this.closeWaiters.get(session.id)?.();
        this.closeWaiters.delete(session.id);
      },
      onData: (stream, session, callback) => {
        (this.options.bodies === false ? headersOnly(stream) : simpleParser(stream))
          .then((mail) => {
            if (this.refuseMessages > 0) {
              this.refuseMessages -= 1;
              this.deliveries.push({ messageId: mail.messageId, answer: 'refused', code: this.refuseMessageCode });
              return callback(smtpError(this.refuseMessageCode, 'Message refused by the test sink'));
            }
            const headers: Record<string, string> = {};
            for (const { key, line } of mail.headerLines) headers[key] = line.slice(line.indexOf(':') + 1).trim();
            this.messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              messageId: mail.messageId,
              headers,
              subject: mail.subject,
              text: mail.text,
              html: mail.html === false ? undefined : mail.html,
              at: Date.now(),
            });
            const delivery: RecordedDelivery = { messageId: mail.messageId, answer: 'accepted', code: 250 };
            this.deliveries.push(delivery);
            const answer = () => {
              if (this.closedSessions.has(session.id)) delivery.answer = 'lost';
              else callback();
            };
            const held = this.answerHold?.atDoor('SMTP', () => this.sessionClosed(session.id));
            if (held) void held.then(answer);
            else answer();
          })
          .catch((err: Error) => callback(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    // smtp-server reports a client's dropped connection (a killed worker resets its sessions) as
    // an 'error' on the server: a real server logs it and serves on, and so does the sink.
    server.on('error', () => undefined);
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The next `count` messages are answered `code` after DATA and not recorded as accepted. */
  refuseNextMessages(count: number, code = 451): void {
    this.refuseMessages = count;
    this.refuseMessageCode = code;
  }

  /** The next `count` recipients are answered `code` at RCPT TO. */
  refuseNextRecipients(count: number, code = 550): void {
    this.refuseRecipients = count;
    this.refuseRecipientCode = code;
  }

  /** Every message that reached DATA as an attempt on its Message-ID (a resend carries the same one). */
  deliveriesAtDoor(): DoorAttempt[] {
    return this.deliveries.map((d) => ({ identity: d.messageId ?? '(none)', toldDone: d.answer === 'accepted' }));
  }

  reset(): void {
    this.messages.length = 0;
    this.deliveries.length = 0;
    this.connections = 0;
    this.refuseMessages = 0;
    this.refuseRecipients = 0;
    this.closedSessions.clear();
  }

  /** Resolves when the session's client connection has closed (at once if it has). */
  private sessionClosed(id: string): Promise<void> {
    if (this.closedSessions.has(id)) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.set(id, resolve));
  }

  /** Closes the port; `start()` afterwards listens on the same one again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private onRcptTo(_address: SMTPServerAddress, callback: (err?: Error | null) => void): void {
    if (this.refuseRecipients > 0) {
      this.refuseRecipients -= 1;
      return callback(smtpError(this.refuseRecipientCode, 'Recipient refused by the test sink'));
    }
    callback();
  }
}

type ParsedMail = Pick<Awaited<ReturnType<typeof simpleParser>>, 'messageId' | 'subject' | 'text' | 'html'> & {
  headerLines: ReadonlyArray<{ key: string; line: string }>;
};

/**
 * Reads a message to its end and parses only its header section (unfolded lines, keys in lower
 * case): no MIME decoding, so a non-ASCII subject stays encoded. Enough to count by Message-ID.
 */
async function headersOnly(stream: NodeJS.ReadableStream): Promise<ParsedMail> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('latin1');
  const end = raw.search(/\r?\n\r?\n/);
  const section = end === -1 ? raw : raw.slice(0, end);
  const headerLines = section
    .split(/\r?\n(?![ \t])/)
    .filter((line) => line.includes(':'))
    .map((line) => ({ key: line.slice(0, line.indexOf(':')).trim().toLowerCase(), line: line.replace(/\r?\n[ \t]+/g, ' ') }));
  const value = (key: string) =>
    headerLines
      .findLast((h) => h.key === key)
      ?.line.replace(/^[^:]*:\s*/, '')
      .trim();
  return { messageId: value('message-id'), subject: value('subject'), text: undefined, html: false, headerLines };
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

if (require.main === module) {
  const sink = new SmtpSink();
  void sink.start(Number(process.env.PORT ?? 2525)).then((url) => console.log(`SMTP sink on ${url}`));
}
