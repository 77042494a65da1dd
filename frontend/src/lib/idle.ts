/**
 * Runs the callback once the page has loaded, the browser reports idle time, and a further
 * delay has passed. Returns a cancel function.
 */
export function afterPageSettles(callback: () => void, delayMs: number): () => void {
  let idleHandle: number | undefined;
  let timer: number | undefined;
  const startDelay = () => {
    timer = window.setTimeout(callback, delayMs);
  };
  const schedule = () => {
    if ('requestIdleCallback' in window) idleHandle = window.requestIdleCallback(startDelay, { timeout: 2000 });
    else startDelay();
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
    window.clearTimeout(timer);
  };
}
