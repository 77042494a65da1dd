import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** How often the reading is refreshed; also the tick whose lateness shows a loop blocked right now. */
const TICK_MS = 100;
/** Ticks per histogram window: the recent delay is the p99 of the last half second. */
const WINDOW_TICKS = 5;

/**
 * How far behind this process's event loop is, in ms: the larger of the recent p99 delay
 * (perf_hooks' monitorEventLoopDelay over the last window) and how late the monitor's own tick is
 * now. The second sees a loop that is blocked this very moment, which no timer can report until
 * it runs: requests read after a long block are judged by it.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private timer: NodeJS.Timeout | undefined;
  private lastTick = performance.now();
  private ticks = 0;
  private recentMs = 0;

  start(): void {
    if (this.timer) return;
    this.histogram.enable();
    this.lastTick = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
  }

  delayMs(): number {
    return Math.max(this.recentMs, performance.now() - this.lastTick - TICK_MS);
  }

  private tick(): void {
    this.lastTick = performance.now();
    if (++this.ticks < WINDOW_TICKS) return;
    this.ticks = 0;
    this.recentMs = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 : 0;
    this.histogram.reset();
  }
}
