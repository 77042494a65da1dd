import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** How often the reading is refreshed; also the tick whose lateness shows a loop blocked right now. */
const TICK_MS = 100;
/** Ticks per histogram window: the recent delay is the p99 of the last half second. */
const WINDOW_TICKS = 5;

/**
 * How far behind this process's event loop is, in ms: the largest of the recent p99 delay
 * (perf_hooks' monitorEventLoopDelay over the last window), the latest any of the monitor's own
 * ticks came in the current and last window, and how late the next tick is right now. The last
 * two see a loop that was blocked a moment ago, which the histogram only reports at the end of
 * its window: requests read just after a long block (their bytes waited in the socket meanwhile)
 * are judged by it, whichever of the tick and the read the loop runs first.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private timer: NodeJS.Timeout | undefined;
  private lastTick = performance.now();
  private ticks = 0;
  private recentMs = 0;
  private windowLateMs = 0;

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
    const now = performance.now();
    const lateMs = now - this.lastTick - TICK_MS;
    this.lastTick = now;
    this.windowLateMs = Math.max(this.windowLateMs, lateMs);
    this.recentMs = Math.max(this.recentMs, lateMs);
    if (++this.ticks < WINDOW_TICKS) return;
    this.ticks = 0;
    const p99 = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 : 0;
    this.recentMs = Math.max(p99, this.windowLateMs);
    this.windowLateMs = 0;
    this.histogram.reset();
  }
}
