import { Coalescer, LOADED_WITHIN_MS } from './coalescer';

/** A batch function that records each batch and can be held open, as a statement in flight is. */
function recorder(fail?: (inputs: number[]) => boolean) {
  const batches: number[][] = [];
  const held: Array<() => void> = [];
  let holding = false;
  const run = jest.fn(async (inputs: number[]) => {
    batches.push([...inputs]);
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    if (fail?.(inputs)) throw new Error(`bad batch ${inputs.join(',')}`);
    return inputs.map((n) => n * 10);
  });
  return {
    run,
    batches,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      held.splice(0).forEach((resolve) => resolve());
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('runs calls made in one event-loop turn as one batch and answers each caller with its own result', async () => {
    const db = recorder();
    const coalescer = new Coalescer(db.run, { max: 100 });
    await expect(Promise.all([1, 2, 3].map((n) => coalescer.run(n)))).resolves.toEqual([10, 20, 30]);
    expect(db.batches).toEqual([[1, 2, 3]]);
  });

  it('sends a lone call at once and gathers what arrives during a batch in flight into the next one', async () => {
    const db = recorder();
    const coalescer = new Coalescer(db.run, { max: 100 });
    db.hold();
    const first = coalescer.run(1);
    await tick();
    expect(db.batches).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => coalescer.run(n));
    await tick();
    // Nothing else goes out while the first statement is in flight.
    expect(db.batches).toEqual([[1]]);
    db.release();
    await expect(first).resolves.toBe(10);
    await expect(Promise.all(later)).resolves.toEqual([20, 30, 40]);
    expect(db.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('never puts more than max members, or two members with the same key, in one batch', async () => {
    const db = recorder();
    const coalescer = new Coalescer(db.run, { max: 2, keyOf: (n) => String(n % 3) });
    await Promise.all([1, 4, 2, 5, 3].map((n) => coalescer.run(n)));
    expect(db.batches).toEqual([[1, 2], [4, 5], [3]]);
  });

  it('isolates a failing member: the batch is retried one by one and only that caller fails', async () => {
    const db = recorder((inputs) => inputs.includes(2));
    const coalescer = new Coalescer(db.run, { max: 100 });
    const results = await Promise.allSettled([1, 2, 3].map((n) => coalescer.run(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('bad batch 2') },
      { status: 'fulfilled', value: 30 },
    ]);
    expect(db.batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('rejects rather than misattributes when a batch answers the wrong number of results', async () => {
    const coalescer = new Coalescer(async (inputs: string[]) => inputs.slice(1), { max: 100 });
    const results = await Promise.allSettled([coalescer.run('a'), coalescer.run('b')]);
    expect(results).toEqual([
      { status: 'rejected', reason: new Error('Batch answered 0 results for 1 inputs') },
      { status: 'rejected', reason: new Error('Batch answered 0 results for 1 inputs') },
    ]);
  });
  describe('lingering under load', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('sends a call that comes alone at once, without lingering', async () => {
      const db = recorder();
      const coalescer = new Coalescer(db.run, { max: 100, lingerMs: 3000 });
      const started = performance.now();
      await expect(coalescer.run(1)).resolves.toBe(10);
      expect(performance.now() - started).toBeLessThan(1500);
    });

    it('gathers calls that keep coming into one batch while it lingers', async () => {
      const db = recorder();
      const coalescer = new Coalescer(db.run, { max: 100, lingerMs: 200 });
      await coalescer.run(0);
      // Soon after a batch: load. The next calls, a few ms apart, share one batch.
      const later = [1, 2, 3].map(async (n) => {
        await sleep(n * 2);
        return coalescer.run(n);
      });
      await expect(Promise.all(later)).resolves.toEqual([10, 20, 30]);
      expect(db.batches).toEqual([[0], [1, 2, 3]]);
    });

    it('stops lingering once calls stop coming', async () => {
      const db = recorder();
      const coalescer = new Coalescer(db.run, { max: 100, lingerMs: 3000 });
      await coalescer.run(1);
      await sleep(LOADED_WITHIN_MS + 20);
      const started = performance.now();
      await coalescer.run(2);
      expect(performance.now() - started).toBeLessThan(1500);
      expect(db.batches).toEqual([[1], [2]]);
    });

    it('does not linger without the option, however close the calls', async () => {
      const db = recorder();
      const coalescer = new Coalescer(db.run, { max: 100 });
      await coalescer.run(0);
      const later = [1, 2].map(async (n) => {
        await sleep(n * 10);
        return coalescer.run(n);
      });
      await Promise.all(later);
      expect(db.batches).toEqual([[0], [1], [2]]);
    });
  });
});
