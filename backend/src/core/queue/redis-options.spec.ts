import { connectionFor, redisOptionsFromUrl } from './redis-options';

describe('Redis connection options', () => {
  it('takes REDIS_PASSWORD when REDIS_URL carries no password (Compose keeps the URL a plain address)', () => {
    expect(connectionFor('worker', { REDIS_URL: 'redis://redis:6379', REDIS_PASSWORD: 's3cret' })).toMatchObject({
      host: 'redis',
      port: 6379,
      password: 's3cret',
    });
  });

  it("lets a URL's own password win over REDIS_PASSWORD", () => {
    expect(redisOptionsFromUrl('redis://:in%40url@redis:6379/2', 'from-env')).toMatchObject({ password: 'in@url', db: 2 });
  });

  it('has no password when neither gives one', () => {
    expect(connectionFor('producer', { REDIS_URL: 'redis://127.0.0.1:6390' }).password).toBeUndefined();
  });
});
