import type { RecordedCall } from '../../fakes/affiliate-server';

/** What the fake affiliate service (started by `npm test`) has received for one e-mail. */
export async function affiliateSignupsFor(email: string): Promise<RecordedCall[]> {
  const url = process.env.AFFILIATE_CALLS_URL;
  if (!url) throw new Error('AFFILIATE_CALLS_URL is not set: run the browser tests through "npm test"');
  const calls = (await (await fetch(url)).json()) as RecordedCall[];
  return calls.filter((call) => call.path.endsWith('/track/signup') && call.params.email === email);
}
