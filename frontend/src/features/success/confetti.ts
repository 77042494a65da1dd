import { prefersReducedMotion } from '@/lib/user-preferences';

/** Spec section 9: confetti for 3 s, a burst every 250 ms. */
const DURATION_MS = 3000;
const BURST_EVERY_MS = 250;

/**
 * Plays the celebration and returns a stop function. canvas-confetti is bundled, and imported
 * here only, so it loads with the success page and nowhere else; reduced motion skips it.
 */
export function playConfetti(): () => void {
  if (prefersReducedMotion()) return () => {};
  let stopped = false;
  let timer: number | undefined;
  let reset: (() => void) | undefined;
  import('canvas-confetti')
    .then(({ default: confetti }) => {
      if (stopped) return;
      reset = () => confetti.reset();
      const endsAt = Date.now() + DURATION_MS;
      const burst = () =>
        void confetti({
          particleCount: 40,
          spread: 70,
          startVelocity: 35,
          origin: { x: 0.2 + Math.random() * 0.6, y: 0.35 },
          disableForReducedMotion: true,
        });
      burst();
      timer = window.setInterval(() => {
        if (Date.now() >= endsAt) window.clearInterval(timer);
        else burst();
      }, BURST_EVERY_MS);
    })
    .catch((error: unknown) => console.warn('Confetti could not load', error));
  return () => {
    stopped = true;
    window.clearInterval(timer);
    reset?.();
  };
}
