/**
 * A pass run again `intervalMs` after the last one ended (never two at once, never piling up
 * behind a slow one), from `start()` until `stop()`, which waits for the pass under way. A failed
 * pass goes to `onError`; the next one tries again. The timer keeps no process alive.
 */
export class PeriodicPass {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopping = false;

  constructor(
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Whether `stop()` was called: a long pass checks it between batches. */
  get stopped(): boolean {
    return this.stopping;
  }

  start(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    this.running = this.pass().catch(this.onError);
    await this.running;
    this.running = null;
    this.start();
  }
}
