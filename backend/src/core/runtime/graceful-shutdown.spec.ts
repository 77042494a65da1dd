import { loadConfig } from '@core/config/app-config';
import { shutdownBudgetMs } from './graceful-shutdown';

const config = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x', ...env });

describe('shutdown budget', () => {
  it('is SHUTDOWN_TIMEOUT_S less one second, so the process exits before the orchestrator kills it', () => {
    expect(shutdownBudgetMs(config({ SHUTDOWN_TIMEOUT_S: '45' }))).toBe(44_000);
  });

  it('defaults to 30 s, the stop_grace_period docker-compose.yml gives by default', () => {
    expect(shutdownBudgetMs(config({}))).toBe(29_000);
  });

  it('refuses a timeout too short to finish anything', () => {
    expect(() => config({ SHUTDOWN_TIMEOUT_S: '1' })).toThrow(/SHUTDOWN_TIMEOUT_S/);
  });
});
