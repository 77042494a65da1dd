import { Test } from '@nestjs/testing';
import { AppConfig, ConfigError, loadConfig } from './app-config';
import { AccessConfig, CONFIG_SECTIONS, MailConfig, MembershipConfig, PaymentsConfig } from './config-sections';
import { ConfigModule } from './config.module';

const valid = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

describe('config sections', () => {
  it('hold every setting of AppConfig, each in exactly one section', () => {
    const settings = [
      ...Object.keys(new AppConfig()),
      ...Object.getOwnPropertyNames(AppConfig.prototype).filter((name) => name !== 'constructor'),
    ];
    const placed = CONFIG_SECTIONS.flatMap((Section) => Section.keys as readonly string[]);
    expect([...placed].sort()).toEqual([...settings].sort());
  });

  it('read the validated values, and what is changed on the AppConfig later', () => {
    const config = loadConfig({ ...valid, SMTP_URL: 'smtp://mail.test:25', PUBLIC_URL: 'https://shop.test' });
    const mail = MailConfig.of(config);
    const access = AccessConfig.of(config);
    expect(mail).toBeInstanceOf(MailConfig);
    expect(mail).toEqual({ SMTP_URL: 'smtp://mail.test:25', SMTP_TIMEOUT_MS: 15_000, ABANDONED_CHECKOUT_DELAY_S: 3600 });
    expect(access.secureCookies).toBe(true);
    config.SMTP_TIMEOUT_MS = 500;
    expect(mail.SMTP_TIMEOUT_MS).toBe(500);
    expect(() => Object.assign(mail, { SMTP_URL: 'smtp://elsewhere' })).toThrow(TypeError);
  });

  it("refuse a missing payment provider only when it is asked for, as AppConfig does", () => {
    const payments = PaymentsConfig.of(loadConfig(valid));
    expect(() => payments.paymentProvider()).toThrow(ConfigError);
    expect(() => payments.webhookBodyLimitBytes).toThrow(ConfigError);
    const sandbox = PaymentsConfig.of(loadConfig({ ...valid, PAYMENT_PROVIDER: 'sandbox' }));
    expect(sandbox.paymentProvider()).toBe('sandbox');
    expect(sandbox.webhookBodyLimitBytes).toBe(65_536);
  });

  it('are provided by ConfigModule from the AppConfig it provides', async () => {
    const config = loadConfig({ ...valid, MEMBERSHIP_WEBHOOK_TEST_ORDERS: 'true' });
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule] })
      .overrideProvider(AppConfig)
      .useValue(config)
      .compile();
    expect(moduleRef.get(MembershipConfig).MEMBERSHIP_WEBHOOK_TEST_ORDERS).toBe(true);
    for (const Section of CONFIG_SECTIONS) expect(moduleRef.get(Section)).toBeInstanceOf(Section);
  });
});
