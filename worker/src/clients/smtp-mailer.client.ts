import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import SMTPPool from 'nodemailer/lib/smtp-pool';
import { MailConfig } from '@core/config/config-sections';
import { site } from '@contracts/site/site';
import { NotConfiguredError, ProviderUnavailableError } from './provider-call';
import type { ProviderAnswer } from '../ledger/provider-call-ledger';

const SERVICE = 'SMTP server';
/** Open connections per worker; more messages than this wait their turn for one. */
const SMTP_POOL_CONNECTIONS = 5;

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** A stable key for this message (e.g. the ledger key): a resend carries the same Message-ID. */
  messageId: string;
  /** Extra header fields, such as a marketing e-mail's List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
}

/** What nodemailer attaches to a failed send. */
interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
}

/**
 * `<key@domain>` with the sender's domain. Characters a Message-ID may not hold become '.', so
 * one key always yields one id and mail systems that fold repeats can recognise a resend.
 */
export function messageIdFor(key: string, mailFrom: string): string {
  const domain = mailFrom.match(/@([^\s@<>]+)>?\s*$/)?.[1] ?? 'localhost';
  return `<${key.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, '.')}@${domain}>`;
}

/**
 * Sends mail through SMTP_URL, from the site's sender (site.json brand.sender). SMTP has no
 * idempotency key: the ledger sends each message once, and after a crash between the server's
 * answer and the ledger's record the resend has the same Message-ID. A permanent refusal of the message or its recipient (5xx) is `rejected`; refused
 * connections, timeouts, temporary (4xx) answers and login failures (a setting to fix) are thrown.
 */
@Injectable()
export class SmtpMailer implements OnModuleDestroy {
  private transport: Transporter<SMTPPool.SentMessageInfo> | null = null;

  constructor(private readonly config: MailConfig) {}

  get configured(): boolean {
    return Boolean(this.config.SMTP_URL);
  }

  async send(mail: OutgoingMail): Promise<ProviderAnswer> {
    const { sender } = site.brand;
    const messageId = messageIdFor(mail.messageId, sender.address);
    try {
      const info = await this.transporter().sendMail({
        // As name and address, not one string: nodemailer quotes or encodes any name (commas, accents).
        from: { name: sender.name, address: sender.address },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId,
        ...(mail.headers ? { headers: mail.headers } : {}),
        // Content is ours; nodemailer must never read a file or URL named in it.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      return { outcome: 'done', detail: { messageId, accepted: info.accepted.length } };
    } catch (err) {
      return classify(err as SmtpFailure, messageId);
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }

  private transporter(): Transporter<SMTPPool.SentMessageInfo> {
    if (!this.config.SMTP_URL) throw new NotConfiguredError(SERVICE);
    // Pooled: a burst of receipts reuses a few open connections instead of a connect, greeting and
    // EHLO (and the server's work for each) per message. Built as a transport, not from options
    // holding `url`: createTransport would keep only what the URL says and drop the rest.
    this.transport ??= createTransport(
      new SMTPPool({
        pool: true,
        url: this.config.SMTP_URL,
        maxConnections: SMTP_POOL_CONNECTIONS,
        connectionTimeout: this.config.SMTP_TIMEOUT_MS,
        greetingTimeout: this.config.SMTP_TIMEOUT_MS,
        socketTimeout: this.config.SMTP_TIMEOUT_MS,
      }),
    );
    return this.transport;
  }
}

/** nodemailer's messages quote the server's reply, which can name the recipient: only codes are kept. */
function classify(err: SmtpFailure, messageId: string): ProviderAnswer {
  if (err instanceof NotConfiguredError) throw err;
  const code = err.code ?? 'error';
  const status = err.responseCode;
  const command = err.command ?? 'send';
  if (status !== undefined && status >= 500 && code !== 'EAUTH') {
    return { outcome: 'rejected', reason: `${SERVICE} answered ${status} to ${command}`, detail: { messageId, status, command } };
  }
  throw new ProviderUnavailableError(
    SERVICE,
    status === undefined ? `unreachable or failed (${code})` : `answered ${status} to ${command}`,
  );
}
