import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from './env-file';

describe('loadEnvFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'env-file-'));
    writeFileSync(
      join(dir, '.env'),
      [
        '# a comment',
        'STRIPE_SECRET_KEY=sk_test_fromdotenv   # a comment after a value',
        'PUBLIC_URL=http://from-dotenv.example',
        'SMTP_URL=',
        'TRUST_PROXY="loopback, 10.0.0.0/8"',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads .env from the working folder; real environment variables win; an empty value is unset', () => {
    const env: NodeJS.ProcessEnv = { PUBLIC_URL: 'https://real.example' };
    expect(loadEnvFile(env, dir)).toBe(join(dir, '.env'));
    expect(env).toEqual({
      STRIPE_SECRET_KEY: 'sk_test_fromdotenv',
      PUBLIC_URL: 'https://real.example',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
    });
  });

  it('keeps a real variable even when it is empty', () => {
    const env: NodeJS.ProcessEnv = { STRIPE_SECRET_KEY: '' };
    loadEnvFile(env, dir);
    expect(env.STRIPE_SECRET_KEY).toBe('');
  });

  it('reads the file ENV_FILE names, none with ENV_FILE=none, and nothing when there is no .env', () => {
    writeFileSync(join(dir, 'other.env'), 'PORT=4100\n');
    const named: NodeJS.ProcessEnv = { ENV_FILE: 'other.env' };
    loadEnvFile(named, dir);
    expect(named.PORT).toBe('4100');

    const off: NodeJS.ProcessEnv = { ENV_FILE: 'none' };
    expect(loadEnvFile(off, dir)).toBeNull();
    expect(off).toEqual({ ENV_FILE: 'none' });

    const empty = mkdtempSync(join(tmpdir(), 'env-file-empty-'));
    expect(loadEnvFile({}, empty)).toBeNull();
    rmSync(empty, { recursive: true, force: true });
  });

  it('refuses an ENV_FILE that does not exist, naming it', () => {
    expect(() => loadEnvFile({ ENV_FILE: 'missing.env' }, dir)).toThrow(/ENV_FILE names .*missing\.env, which does not exist/);
  });
});
