import { clientSecretFor, intentKindOfSecret, isClientSecret, sandboxId } from './sandbox-ids';

describe('sandbox ids', () => {
  it('makes Stripe-like ids and client secrets', () => {
    expect(sandboxId('pi')).toMatch(/^pi_[0-9A-Za-z]{24}$/);
    expect(sandboxId('seti')).not.toBe(sandboxId('seti'));
    const id = sandboxId('pi');
    expect(clientSecretFor(id)).toMatch(new RegExp(`^${id}_secret_[0-9A-Za-z]{24}$`));
  });

  it('knows its client secrets and the intent each belongs to', () => {
    const payment = clientSecretFor(sandboxId('pi'));
    const setup = clientSecretFor(sandboxId('seti'));
    expect([isClientSecret(payment), isClientSecret(setup), isClientSecret(`${payment}x`), isClientSecret('seti_x_secret_y')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(intentKindOfSecret(payment)).toBe('payment_intent');
    expect(intentKindOfSecret(setup)).toBe('setup_intent');
  });
});
