import { afterPageSettles } from '@/lib/idle';
import { prefersReducedMotion } from '@/lib/user-preferences';

/** Spec section 9: confetti for 3 s, a burst every 250 ms. */
const DURATION_MS = 3000;
const BURST_EVERY_MS = 250;
/**
 * How long the last bursts may keep falling. canvas-confetti counts a particle's life in frames
 * (200, about 3.3 s at 60 fps), so on a starved device it could drift on for many seconds; this
 * bounds the celebration in time instead.
 */
const FALL_MS = 3500;

/**
 * Plays the celebration and returns a stop function. canvas-confetti is bundled, and imported
 * here only, so it loads with the success page and nowhere else; reduced motion skips it.
 *
 * It starts once the page has loaded and the browser is idle, and its first burst waits for
 * idle time again after the library is evaluated: started in the task that shows the verified
 * payment, the library's evaluation, its canvas and first burst made one long task that blocked
 * the page (Total Blocking Time over budget on /success). A moment later, it blocks nothing.
 *
 * It draws on a canvas of our own on the main thread: the library's default instance hands its
 * canvas to a blob: worker, which our Content-Security-Policy blocks, so nothing would be drawn and
 * the canvas would never be removed. The canvas goes once the last particles have landed (at most
 * FALL_MS after the last burst), or as soon as the page stops the celebration.
 */
export function playConfetti(): () => void {
  if (prefersReducedMotion()) return () => {};
  let stopped = false;
  let burstTimer: number | undefined;
  let fallTimer: number | undefined;
  let clear: (() => void) | undefined;
  let cancelWait = () => {};
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelWait();
    window.clearInterval(burstTimer);
    window.clearTimeout(fallTimer);
    clear?.();
  };
  const celebrate = (confetti: typeof import('canvas-confetti')) => {
    const canvas = document.createElement('canvas');
    canvas.className = 'success__confetti';
    canvas.setAttribute('aria-hidden', 'true');
    document.body.append(canvas);
    const cannon = confetti.create(canvas, { resize: true, useWorker: false });
    clear = () => {
      cannon.reset();
      canvas.remove();
    };
    const endsAt = Date.now() + DURATION_MS;
    // Every burst joins the running animation, whose promise settles when its last particle lands.
    let landed: Promise<unknown> | null = null;
    const burst = () => {
      landed = cannon({ particleCount: 40, spread: 70, startVelocity: 35, origin: { x: 0.2 + Math.random() * 0.6, y: 0.35 } });
    };
    burst();
    burstTimer = window.setInterval(() => {
      if (Date.now() < endsAt) {
        burst();
        return;
      }
      window.clearInterval(burstTimer);
      fallTimer = window.setTimeout(stop, FALL_MS);
      void landed?.then(stop);
    }, BURST_EVERY_MS);
  };
  cancelWait = afterPageSettles(() => {
    import('canvas-confetti')
      .then(({ default: confetti }) => {
        if (!stopped) cancelWait = afterPageSettles(() => celebrate(confetti), 0);
      })
      .catch((error: unknown) => console.warn('Confetti could not load', error));
  }, 0);
  return stop;
}
