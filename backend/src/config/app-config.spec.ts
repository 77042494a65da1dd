import { ConfigError, loadConfig } from './app-config';

const valid = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

describe('loadConfig', () => {
  it('applies documented defaults to a minimal environment', () => {
    const config = loadConfig(valid);
    expect(config.PORT).toBe(3000);
    expect(config.BODY_LIMIT_BYTES).toBe(16_384);
    expect(config.AFFILIATE_API_KEY).toBeUndefined();
  });

  it('converts numeric and boolean variables', () => {
    const config = loadConfig({ ...valid, PORT: '8080', TRUST_PROXY: 'true', RATE_LIMIT_WRITES: '5' });
    expect(config).toMatchObject({ PORT: 8080, TRUST_PROXY: true, RATE_LIMIT_WRITES: 5 });
  });

  it('names a missing variable', () => {
    expect(() => loadConfig({ REDIS_URL: valid.REDIS_URL })).toThrow(/DATABASE_URL \(missing\)/);
  });

  it('names a malformed variable and its value', () => {
    let error: unknown;
    try {
      loadConfig({ ...valid, PORT: 'eighty', REDIS_URL: 'localhost:6379' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/PORT \("eighty"\)/);
    expect((error as Error).message).toMatch(/REDIS_URL \("localhost:6379"\): must be a redis:\/\/ connection URL/);
  });

  it('treats an empty affiliate key as not configured', () => {
    expect(loadConfig({ ...valid, AFFILIATE_API_KEY: '' }).AFFILIATE_API_KEY).toBeUndefined();
  });
});
