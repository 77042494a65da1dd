import type { AdminAccountRepository } from '@core/database/repositories/admin-account.repository';
import { loadConfig } from '@core/config/app-config';
import { AdminSessionService, csrfTokenMatches } from './admin-session.service';

const serviceWith = (env: Record<string, string>) =>
  new AdminSessionService({} as AdminAccountRepository, loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x', ...env }));

describe('admin session cookie', () => {
  it('is Secure in production behind an https PUBLIC_URL', () => {
    expect(
      serviceWith({
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://clear.example.com',
        INVITATION_TOKEN_KEY: 'a'.repeat(64),
      }).clearedCookie(),
    ).toBe('admin_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict');
  });

  it('is Secure behind an https PUBLIC_URL whatever NODE_ENV says (a container started without NODE_ENV)', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(serviceWith({ NODE_ENV, PUBLIC_URL: 'https://clear.example.com' }).clearedCookie()).toContain('; Secure;');
    }
  });

  it('is not Secure on plain http, where `npm start` and a local trial run with NODE_ENV=production', () => {
    expect(
      serviceWith({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', INVITATION_TOKEN_KEY: 'a'.repeat(64) }).clearedCookie(),
    ).not.toContain('Secure');
    expect(serviceWith({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:3000' }).clearedCookie()).not.toContain('Secure');
  });
});

describe('csrfTokenMatches', () => {
  it.each([
    ['abc', 'abc', true],
    ['abd', 'abc', false],
    ['ab', 'abc', false],
    [undefined, 'abc', false],
    [['abc'], 'abc', false],
  ])('%p vs %p -> %p', (presented, expected, result) => {
    expect(csrfTokenMatches(presented, expected)).toBe(result);
  });
});
