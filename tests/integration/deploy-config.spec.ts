import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { AppConfig } from '@core/config/app-config';

/**
 * docker-compose.yml, .env.example and .dockerignore against the code they configure: what the
 * deploy relies on without a Docker daemon to check it (npm run test:deploy runs the stack itself).
 */
const root = resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const compose = read('docker-compose.yml');

/** The lines of one top-level service, up to the next service. */
function service(name: string): string {
  const start = compose.indexOf(`\n  ${name}:\n`);
  expect(start).toBeGreaterThan(0);
  const next = compose.slice(start + 1).search(/\n {2}[a-z][\w-]*:\n|\n[a-z]/);
  return compose.slice(start, next < 0 ? undefined : start + 1 + next);
}

describe('docker-compose.yml', () => {
  it('gives the processes the same shutdown budget as stop_grace_period, defaulting to the config default', () => {
    const defaults = new AppConfig();
    expect(compose).toContain(`SHUTDOWN_TIMEOUT_S: \${SHUTDOWN_TIMEOUT_S:-${defaults.SHUTDOWN_TIMEOUT_S}}`);
    expect(compose).toContain(`stop_grace_period: \${SHUTDOWN_TIMEOUT_S:-${defaults.SHUTDOWN_TIMEOUT_S}}s`);
    // Every stop_grace_period is that one (the app services share it through the x-app anchor).
    expect(compose.match(/stop_grace_period:.*/g)).toEqual([`stop_grace_period: \${SHUTDOWN_TIMEOUT_S:-${defaults.SHUTDOWN_TIMEOUT_S}}s`]);
    for (const name of ['migrate', 'api', 'worker']) expect(service(name)).toContain('<<: *app');
  });

  it('requires every secret and the choices nobody may make by default', () => {
    for (const name of ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'PAYMENT_PROVIDER', 'SMTP_URL', 'INVITATION_TOKEN_KEY']) {
      expect(compose).toMatch(new RegExp(`\\$\\{${name}:\\?[^}]+\\}`));
      expect(compose).not.toMatch(new RegExp(`\\$\\{${name}:-`));
    }
    expect(compose).not.toMatch(/clear:clear|POSTGRES_PASSWORD: clear/);
    expect(service('redis')).toContain('--requirepass');
  });

  it('passes .env to every app process and runs MailDev only under the local profile, on loopback', () => {
    expect(compose).toContain('env_file: ${COMPOSE_ENV_FILE:-.env}');
    const mail = service('mail');
    expect(mail).toContain('profiles: [local]');
    expect(mail).toMatch(/ports: \['127\.0\.0\.1:/);
    // Nothing else is published but the proxy.
    for (const name of ['postgres', 'redis', 'migrate', 'api', 'worker']) expect(service(name)).not.toMatch(/\n {4}ports:/);
  });

  it('health-checks the worker through the heartbeat file it is told to write', () => {
    const worker = service('worker');
    const file = /WORKER_HEARTBEAT_FILE: (\S+)/.exec(worker)?.[1];
    expect(file).toBeDefined();
    expect(worker).toMatch(new RegExp(`healthcheck:[\\s\\S]*statSync\\('${file}'`));
  });
});

describe('.env.example', () => {
  const text = read('.env.example');

  it('reads the same with Node and with Compose v1: no comment after an empty value, no indented comment', () => {
    const bad = text.split('\n').filter((line) => /^[A-Z0-9_]+=\s+#/.test(line) || /^\s+#/.test(line));
    expect(bad).toEqual([]);
    expect(Object.keys(parseEnv(text)).filter((name) => !/^[A-Z][A-Z0-9_]*$/.test(name))).toEqual([]);
  });

  it('documents every variable the API and worker read', () => {
    const documented = new Set([...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const read = Object.keys(new AppConfig()).concat(['DATABASE_URL', 'REDIS_URL', 'AFFILIATE_API_KEY']);
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe('.dockerignore', () => {
  it('keeps secrets, installed packages, local data and build output out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of ['.env', '.git', '**/node_modules', 'test-results', '.data', 'dist']) expect(ignored).toContain(entry);
  });
});
