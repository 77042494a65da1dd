import { bearerMatches } from '@core/runtime/bearer';
import { DASHBOARD_WRITE_REFUSED, dashboardMutation, isSameOrigin, wantsPage } from './queue-dashboard.policy';

const OWN = ['https://funnel.example', 'http://127.0.0.1:3000'];

describe('queue dashboard policy', () => {
  it.each([
    [{ origin: 'https://funnel.example' }, true],
    [{ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ origin: 'https://evil.example' }, false],
    [{ origin: 'https://funnel.example', 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{ origin: 'null' }, false],
    [{}, false],
  ])('same-origin check of %j is %s', (headers, expected) => {
    expect(isSameOrigin(headers, OWN)).toBe(expected);
  });

  it('names the audited action and target of each allowed write', () => {
    expect(dashboardMutation('PUT', '/api/queues/:queueName/:jobId/retry', { queueName: 'payments', jobId: 'abc' })).toEqual({
      action: 'queue.retry',
      target: 'job:payments/abc',
    });
    expect(
      dashboardMutation('PUT', '/api/queues/:queueName/clean/:queueStatus', { queueName: 'tracking', queueStatus: 'completed' }),
    ).toEqual({
      action: 'queue.clean',
      target: 'queue:tracking/completed',
    });
    expect(dashboardMutation('PUT', '/api/queues/pause', {})).toEqual({ action: 'queue.pause', target: 'queues:all' });
  });

  it('refuses writes that bypass the outbox or drop accepted work', () => {
    expect(dashboardMutation('POST', '/api/queues/:queueName/add', { queueName: 'tracking' })).toEqual({
      refused: DASHBOARD_WRITE_REFUSED,
    });
    expect(dashboardMutation('PUT', '/api/queues/:queueName/obliterate', { queueName: 'tracking' })).toEqual({
      refused: DASHBOARD_WRITE_REFUSED,
    });
    expect(dashboardMutation('PATCH', '/api/queues/:queueName/:jobId/update-data', { queueName: 'tracking', jobId: '1' })).toEqual({
      refused: DASHBOARD_WRITE_REFUSED,
    });
    expect(
      dashboardMutation('PUT', '/api/queues/:queueName/clean/:queueStatus', { queueName: 'tracking', queueStatus: 'waiting' }),
    ).toHaveProperty('refused');
    expect(
      dashboardMutation('PUT', '/api/queues/:queueName/retry/:queueStatus', { queueName: 'tracking', queueStatus: 'completed' }),
    ).toHaveProperty('refused');
  });

  it('treats only HTML GETs as page requests', () => {
    expect(wantsPage('GET', 'text/html,application/xhtml+xml')).toBe(true);
    expect(wantsPage('GET', 'application/json')).toBe(false);
    expect(wantsPage('PUT', 'text/html')).toBe(false);
  });
});

describe('metrics bearer token', () => {
  const token = 'a-metrics-token-of-enough-length';
  it('accepts exactly the configured token', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
  });
  it('accepts nothing when no token is configured', () => {
    expect(bearerMatches('Bearer ', undefined)).toBe(false);
    expect(bearerMatches('Bearer anything', undefined)).toBe(false);
  });
});
