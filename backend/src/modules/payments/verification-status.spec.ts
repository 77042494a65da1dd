import { verificationStatus } from './verification-status';

describe('verification status', () => {
  it('answers verification in Stripe words', () => {
    expect(verificationStatus('one-time', 'failed')).toBe('requires_payment_method');
    expect(verificationStatus('one-time', 'succeeded')).toBe('succeeded');
    expect(verificationStatus('subscription', 'active')).toBe('active');
    expect(verificationStatus('subscription', 'requires_action')).toBe('incomplete');
  });
});
