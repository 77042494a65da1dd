import { expect } from '@playwright/test';

/** A message the test run's SMTP sink accepted (see tests/fakes/smtp-sink.ts). */
export interface ReceivedMail {
  envelope: { from?: string; to: string[] };
  messageId?: string;
  subject?: string;
  text?: string;
  html?: string;
  /** Header fields by lower-case name. */
  headers: Record<string, string>;
}

/** Every message the SMTP sink accepted for `email`, oldest first. */
export async function mailTo(email: string): Promise<ReceivedMail[]> {
  const inbox = process.env.SMTP_MESSAGES_URL;
  if (!inbox) throw new Error('SMTP_MESSAGES_URL is not set: run the browser tests through "npm test"');
  const res = await fetch(`${inbox}?to=${encodeURIComponent(email)}`);
  return (await res.json()) as ReceivedMail[];
}

/** Waits until the sink holds a message for `email` whose subject matches, and returns those messages. */
export async function waitForMail(email: string, subject: RegExp, timeoutMs = 20_000): Promise<ReceivedMail[]> {
  const matching = async () => (await mailTo(email)).filter((m) => subject.test(m.subject ?? ''));
  await expect.poll(async () => (await matching()).length, { timeout: timeoutMs, intervals: [250, 500, 1000] }).toBeGreaterThan(0);
  return matching();
}
