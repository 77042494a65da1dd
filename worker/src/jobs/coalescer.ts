interface Waiting<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/** Enough members to amortise a round trip and a commit; small enough to keep a statement short. */
export const BATCH_MAX = 100;

export interface CoalescerOptions<In> {
  /** Most members in one batch. */
  max: number;
  /** Members with the same key never share a batch (one statement cannot upsert a row twice). */
  keyOf?: (input: In) => string;
  /**
   * Under load (a batch began within the last LOADED_WITHIN_MS), a batch that would go at once
   * waits this long for more members: fewer statements and commits while calls keep coming, and
   * no wait for a call that comes alone. Only for writes nobody waits on to go on (bookkeeping
   * after the work), since each of their callers waits this much longer. Default 0.
   */
  lingerMs?: number;
}

/** Calls this close to the previous batch mean load: a lingering coalescer waits for more. */
export const LOADED_WITHIN_MS = 50;

/** How long bookkeeping written after the work and its records (a job's done stamp, an order's paid_effects) lingers under load. */
export const BOOKKEEPING_LINGER_MS = 10;

/**
 * Runs many callers' copies of one statement as one statement. A call waits at most for the
 * batch in flight: everything that arrives meanwhile shares the next one, so under load a
 * batch grows to what arrived during one round trip, and alone a call goes out at once. Each
 * caller still awaits its own result, so a resolved write is a committed write. Should a batch
 * fail, its members run one by one and only the offending call fails.
 *
 * `runBatch` answers with one result per input, in the order of the inputs.
 */
export class Coalescer<In, Out> {
  private waiting: Array<Waiting<In, Out>> = [];
  private busy = false;
  private lastBatchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly runBatch: (inputs: In[]) => Promise<Out[]>,
    private readonly opts: CoalescerOptions<In>,
  ) {}

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        const linger = this.opts.lingerMs && performance.now() - this.lastBatchAt < LOADED_WITHIN_MS ? this.opts.lingerMs : 0;
        // Calls made in the same event-loop turn (or while it lingers) join this first batch.
        if (linger > 0) setTimeout(() => void this.drain(), linger);
        else setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) await this.runOne(this.take());
    this.busy = false;
  }

  private take(): Array<Waiting<In, Out>> {
    const batch: Array<Waiting<In, Out>> = [];
    const rest: Array<Waiting<In, Out>> = [];
    const keys = new Set<string>();
    for (const item of this.waiting) {
      const key = this.opts.keyOf?.(item.input);
      if (batch.length < this.opts.max && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        batch.push(item);
      } else {
        rest.push(item);
      }
    }
    this.waiting = rest;
    return batch;
  }

  private async runOne(batch: Array<Waiting<In, Out>>): Promise<void> {
    this.lastBatchAt = performance.now();
    try {
      const outs = await this.call(batch.map((item) => item.input));
      batch.forEach((item, i) => item.resolve(outs[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const item of batch) {
        try {
          const [out] = await this.call([item.input]);
          item.resolve(out);
        } catch (memberErr) {
          item.reject(memberErr);
        }
      }
    }
  }

  private async call(inputs: In[]): Promise<Out[]> {
    const outs = await this.runBatch(inputs);
    if (outs.length !== inputs.length) throw new Error(`Batch answered ${outs.length} results for ${inputs.length} inputs`);
    return outs;
  }
}
