import { createConfettiScene, fitCanvas, type ConfettiSize, type ConfettiTiming } from './confetti-scene';

/**
 * Draws the celebration on the page's canvas, handed over as an OffscreenCanvas
 * (confetti-canvas.ts), so none of its frames runs on the page's main thread. Posts 'done' when the
 * last particle has landed.
 */
export type ConfettiWorkerMessage =
  { type: 'start'; canvas: OffscreenCanvas; size: ConfettiSize; timing: ConfettiTiming } | { type: 'resize'; size: ConfettiSize };

interface WorkerScope {
  onmessage: ((event: MessageEvent<ConfettiWorkerMessage>) => void) | null;
  postMessage: (message: 'done') => void;
  close: () => void;
  requestAnimationFrame?: (callback: (now: number) => void) => number;
}

const scope = self as unknown as WorkerScope;
const nextFrame = (callback: (now: number) => void) =>
  scope.requestAnimationFrame ? scope.requestAnimationFrame(callback) : setTimeout(() => callback(performance.now()), 16);

let size: ConfettiSize = { width: 0, height: 0, ratio: 1 };

scope.onmessage = ({ data }) => {
  if (data.type === 'resize') {
    size = data.size;
    return;
  }
  size = data.size;
  const { canvas } = data;
  const context = canvas.getContext('2d');
  const scene = createConfettiScene(data.timing, performance.now());
  const frame = (now: number) => {
    fitCanvas(canvas, size);
    if (context && scene.draw(context, now, size)) {
      nextFrame(frame);
      return;
    }
    scope.postMessage('done');
    scope.close();
  };
  nextFrame(frame);
};
