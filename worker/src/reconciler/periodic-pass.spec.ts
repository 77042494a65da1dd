import { PeriodicPass } from './periodic-pass';

describe('a periodic pass', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs an interval after the last pass ended, never two at once, and goes on after a failure', async () => {
    let finish: () => void = () => undefined;
    const started: number[] = [];
    const errors: string[] = [];
    let calls = 0;
    const pass = new PeriodicPass(
      1000,
      () => {
        started.push(Date.now());
        calls += 1;
        if (calls === 2) return Promise.reject(new Error('provider down'));
        return new Promise<void>((resolve) => (finish = resolve));
      },
      (err) => errors.push(err.message),
    );
    const begin = Date.now();
    pass.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(started).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(started).toEqual([begin + 1000]);
    // The first pass takes 5 s: no second one starts meanwhile.
    await jest.advanceTimersByTimeAsync(5000);
    expect(started).toHaveLength(1);
    finish();
    await jest.advanceTimersByTimeAsync(1000);
    expect(started).toEqual([begin + 1000, begin + 7000]);
    expect(errors).toEqual(['provider down']);
    await jest.advanceTimersByTimeAsync(1000);
    expect(started).toEqual([begin + 1000, begin + 7000, begin + 8000]);
    finish();
    await pass.stop();
  });

  it('stops: waits for the pass under way, then starts none', async () => {
    let finish: () => void = () => undefined;
    let calls = 0;
    const pass = new PeriodicPass(
      1000,
      () => {
        calls += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      () => undefined,
    );
    pass.start();
    await jest.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = pass.stop().then(() => (stopped = true));
    expect(pass.stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
  });
});
