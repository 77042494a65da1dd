import { createConfettiScene, fitCanvas, MAX_PIXEL_RATIO, type ConfettiSize, type ConfettiTiming } from './confetti-scene';
import type { ConfettiWorkerMessage } from './confetti-worker';

const sizeOfWindow = (): ConfettiSize => ({
  width: window.innerWidth,
  height: window.innerHeight,
  ratio: Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO),
});

/**
 * Starts the celebration on a new full-window canvas; the returned function ends it and removes the
 * canvas, as does the celebration's end. Where the browser can hand a canvas to a worker, a worker
 * of this origin draws every frame (the Content-Security-Policy allows no blob: worker, this one
 * is a file of the build), so the page's main thread stays free; elsewhere the frames run here.
 */
export function launchConfetti(timing: ConfettiTiming): () => void {
  const canvas = document.createElement('canvas');
  canvas.className = 'success__confetti';
  canvas.setAttribute('aria-hidden', 'true');
  document.body.append(canvas);
  let stopped = false;
  const cleanups: (() => void)[] = [];
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cleanups.forEach((cleanup) => cleanup());
    canvas.remove();
  };

  if (typeof Worker === 'function' && typeof canvas.transferControlToOffscreen === 'function') {
    const worker = new Worker(new URL('./confetti-worker.ts', import.meta.url), { type: 'module' });
    const post = (message: ConfettiWorkerMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
    const offscreen = canvas.transferControlToOffscreen();
    post({ type: 'start', canvas: offscreen, size: sizeOfWindow(), timing }, [offscreen]);
    const onResize = () => post({ type: 'resize', size: sizeOfWindow() });
    window.addEventListener('resize', onResize);
    worker.addEventListener('message', stop);
    worker.addEventListener('error', stop);
    cleanups.push(
      () => window.removeEventListener('resize', onResize),
      () => worker.terminate(),
    );
    return stop;
  }

  const context = canvas.getContext('2d');
  const scene = createConfettiScene(timing, performance.now());
  let frame = 0;
  const draw = (now: number) => {
    const size = sizeOfWindow();
    fitCanvas(canvas, size);
    if (context && scene.draw(context, now, size)) frame = requestAnimationFrame(draw);
    else stop();
  };
  frame = requestAnimationFrame(draw);
  cleanups.push(() => cancelAnimationFrame(frame));
  return stop;
}
