import { settledWithin, valueWithin, withTimeout } from './with-timeout';

describe('waiting with a time limit', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('valueWithin: the value of work that resolves in time', async () => {
    await expect(valueWithin(Promise.resolve('client'), 100)).resolves.toBe('client');
  });

  it('valueWithin: null for work that rejects, without rejecting itself', async () => {
    await expect(valueWithin(Promise.reject(new Error('ECONNREFUSED')), 100)).resolves.toBeNull();
  });

  it('valueWithin: null once the time is up for work that never settles, leaving no timer behind', async () => {
    const answer = valueWithin(new Promise(() => undefined), 100);
    await jest.advanceTimersByTimeAsync(100);
    await expect(answer).resolves.toBeNull();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('valueWithin: clears its timer when the work settles first', async () => {
    await valueWithin(Promise.resolve(1), 10_000);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('settledWithin: resolves for work that rejects or never settles', async () => {
    await expect(settledWithin(Promise.reject(new Error('gone')), 100)).resolves.toBeUndefined();
    const waiting = settledWithin(new Promise(() => undefined), 100);
    await jest.advanceTimersByTimeAsync(100);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('withTimeout: rejects naming the step once the time is up', async () => {
    const answer = withTimeout(new Promise(() => undefined), 100, 'Adding jobs to Redis');
    const checked = expect(answer).rejects.toThrow('Adding jobs to Redis did not finish within 100 ms');
    await jest.advanceTimersByTimeAsync(100);
    await checked;
  });
});
