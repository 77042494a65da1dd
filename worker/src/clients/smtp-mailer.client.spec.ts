import { site } from '@contracts/site/site';
import { loadConfig } from '@core/config/app-config';
import { SmtpSink } from '../../../tests/fakes/smtp-sink';
import { SmtpMailer, messageIdFor, OutgoingMail } from './smtp-mailer.client';
import { NotConfiguredError, ProviderUnavailableError } from './provider-call';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

/** The sender site.json names, and the domain its Message-IDs carry. */
const { sender } = site.brand;
const domain = sender.address.split('@')[1];
const mail: OutgoingMail = {
  to: 'buyer@example.com',
  subject: `Your ${site.brand.programName} receipt`,
  html: '<p>Thank you &amp; welcome</p>',
  text: 'Thank you & welcome',
  messageId: 'receipt-email:order-1',
};

/** Mailer and SMTP sink together: the message as a mail client would receive it. */
describe('SmtpMailer against an SMTP sink', () => {
  const sink = new SmtpSink();
  let mailer: SmtpMailer;

  beforeAll(async () => {
    const url = await sink.start();
    mailer = new SmtpMailer(loadConfig({ ...base, SMTP_URL: url, SMTP_TIMEOUT_MS: '2000' }));
  });
  afterEach(() => sink.reset());
  afterAll(async () => {
    mailer.onModuleDestroy();
    await sink.stop();
  });

  it('delivers one message with its HTML and text parts, sender, recipient and a Message-ID from the key', async () => {
    await expect(mailer.send(mail)).resolves.toEqual({
      outcome: 'done',
      detail: { messageId: `<receipt-email.order-1@${domain}>`, accepted: 1 },
    });
    expect(sink.messages).toHaveLength(1);
    const [message] = sink.messages;
    expect(message).toMatchObject({
      envelope: { from: sender.address, to: ['buyer@example.com'] },
      messageId: `<receipt-email.order-1@${domain}>`,
      subject: mail.subject,
      text: 'Thank you & welcome',
      html: '<p>Thank you &amp; welcome</p>',
    });
    expect(message.headers.from).toBe(`${sender.name} <${sender.address}>`);
    expect(message.headers['content-type']).toMatch(/^multipart\/alternative/);
  });

  it("sends from the site's sender, its name quoted as a header needs and its domain in the Message-ID", async () => {
    const replaced = jest.replaceProperty(site.brand, 'sender', { name: 'Shop, Inc.', address: 'hello@shop.example' });
    try {
      await mailer.send(mail);
    } finally {
      replaced.restore();
    }
    expect(sink.messages[0].headers.from).toBe('"Shop, Inc." <hello@shop.example>');
    expect(sink.messages[0].envelope.from).toBe('hello@shop.example');
    expect(sink.messages[0].messageId).toBe('<receipt-email.order-1@shop.example>');
  });

  it('sends a burst of messages over a few pooled connections, not one connection each', async () => {
    const burst = Array.from({ length: 12 }, (_, i) => mailer.send({ ...mail, messageId: `receipt-email:burst-${i}` }));
    expect((await Promise.all(burst)).every((answer) => answer.outcome === 'done')).toBe(true);
    expect(sink.messages).toHaveLength(12);
    expect(sink.connections).toBeLessThanOrEqual(5);
  });

  it('carries the extra header fields it is given, such as List-Unsubscribe', async () => {
    await mailer.send({
      ...mail,
      headers: {
        'List-Unsubscribe': '<https://shop.example/api/unsubscribe?token=t>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    expect(sink.messages[0].headers).toMatchObject({
      'list-unsubscribe': '<https://shop.example/api/unsubscribe?token=t>',
      'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
    });
  });

  it('gives a resend of the same key the same Message-ID, so the copy is recognisable', async () => {
    await mailer.send(mail);
    await mailer.send(mail);
    expect(sink.messages.map((m) => m.messageId)).toEqual([`<receipt-email.order-1@${domain}>`, `<receipt-email.order-1@${domain}>`]);
    await mailer.send({ ...mail, messageId: 'receipt-email:order-2' });
    expect(sink.messages[2].messageId).toBe(`<receipt-email.order-2@${domain}>`);
  });

  it('throws a retryable error when the server refuses the message with a 4xx; the retry is delivered once', async () => {
    sink.refuseNextMessages(1, 451);
    const err = await mailer.send(mail).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toMatch(/^SMTP server answered 451/);
    expect(sink.messages).toHaveLength(0);

    await expect(mailer.send(mail)).resolves.toMatchObject({ outcome: 'done' });
    expect(sink.messages).toHaveLength(1);
    expect(sink.deliveries.map((d) => d.answer)).toEqual(['refused', 'accepted']);
  });

  it('rejects for good when the recipient is refused with a 5xx, without naming the address', async () => {
    sink.refuseNextRecipients(1, 550);
    const answer = await mailer.send(mail);
    expect(answer).toMatchObject({ outcome: 'rejected', reason: 'SMTP server answered 550 to RCPT TO', detail: { status: 550 } });
    expect(JSON.stringify(answer)).not.toContain('buyer@example.com');
    expect(sink.messages).toHaveLength(0);
  });

  it('rejects for good a message the server refuses with a 5xx after DATA', async () => {
    sink.refuseNextMessages(1, 554);
    await expect(mailer.send(mail)).resolves.toMatchObject({ outcome: 'rejected', detail: { status: 554 } });
  });

  it('throws a retryable error while the server is down, and delivers once it is back on the same port', async () => {
    await sink.stop();
    try {
      const err = await mailer.send(mail).catch((e: Error) => e);
      expect(err).toBeInstanceOf(ProviderUnavailableError);
      expect((err as Error).message).toBe('SMTP server unreachable or failed (ESOCKET)');
    } finally {
      await sink.start();
    }
    await expect(mailer.send(mail)).resolves.toMatchObject({ outcome: 'done' });
    expect(sink.messages).toHaveLength(1);
  });

  it('is not configured without SMTP_URL, and then sends nothing', async () => {
    const unconfigured = new SmtpMailer(loadConfig(base));
    expect(unconfigured.configured).toBe(false);
    await expect(unconfigured.send(mail)).rejects.toBeInstanceOf(NotConfiguredError);
    expect(mailer.configured).toBe(true);
    expect(sink.deliveries).toHaveLength(0);
  });
});

describe('messageIdFor', () => {
  it('uses the sender domain and keeps only characters a Message-ID may hold', () => {
    expect(messageIdFor('receipt-email:ord 1<x>', 'receipts@mail.example.org')).toBe('<receipt-email.ord.1.x.@mail.example.org>');
    expect(messageIdFor('k', '"Brand, Inc." <a@b.example>')).toBe('<k@b.example>');
  });
});
