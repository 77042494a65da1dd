import { createHmac } from 'node:crypto';
import { AppConfig } from '@core/config/app-config';
import { MembershipWebhookClient, signMembershipNotice } from './membership-webhook.client';

describe('membership webhook signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body"> under the shared secret', () => {
    const body = '{"id":"m:1"}';
    const expected = createHmac('sha256', 'k'.repeat(32)).update(`1700000000.${body}`).digest('hex');
    expect(signMembershipNotice(body, 'k'.repeat(32), 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
    expect(signMembershipNotice(body, 'j'.repeat(32), 1_700_000_000)).not.toBe(`t=1700000000,v1=${expected}`);
  });

  it('is not configured without both the URL and the secret, and then refuses to send', async () => {
    const config = Object.assign(new AppConfig(), {
      MEMBERSHIP_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      MEMBERSHIP_WEBHOOK_SECRET: undefined,
    });
    const client = new MembershipWebhookClient(config);
    expect(client.configured).toBe(false);
    await expect(client.send({} as never, 'key')).rejects.toThrow('Membership webhook is not configured');
  });
});
