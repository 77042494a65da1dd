import { prefersReducedMotion } from '@/lib/user-preferences';

/** Spec section 9: confetti for 3 s, a burst every 250 ms. */
const DURATION_MS = 3000;
const BURST_EVERY_MS = 250;
/** How long the last bursts may keep falling: the celebration is bounded in time, whatever the device. */
const FALL_MS = 3500;

/**
 * Plays the celebration and returns a stop function. Its code (confetti-canvas.ts, about 1 KiB) is
 * fetched here only, once a payment is confirmed; reduced motion skips it. The canvas goes once the
 * last particles have landed (at most FALL_MS after the last burst), or as soon as the page stops
 * the celebration.
 */
export function playConfetti(): () => void {
  if (prefersReducedMotion()) return () => {};
  let stopped = false;
  let stopCanvas: (() => void) | undefined;
  import('./confetti-canvas')
    .then(({ launchConfetti }) => {
      if (!stopped) stopCanvas = launchConfetti({ durationMs: DURATION_MS, burstEveryMs: BURST_EVERY_MS, fallMs: FALL_MS });
    })
    .catch((error: unknown) => console.warn('Confetti could not load', error));
  return () => {
    stopped = true;
    stopCanvas?.();
  };
}
