/**
 * How a prerendered page's entry (generated from src/pages/registry.ts) loads its islands' code. React's
 * runtime is the heaviest code any page evaluates (about 15–20 ms on the bench machine, four times
 * that on a phone's CPU), and a module graph is evaluated in one task: with the page's own modules
 * in the same graph, that task passed 50 ms and counted as blocking time. So the runtime is
 * fetched and evaluated first, and the page's code (which finds it evaluated) in a later task.
 * This module imports nothing, so an entry stays free of React until it asks.
 */
export function loadIslands(load: () => Promise<unknown>): Promise<unknown> {
  // Through the module that hydrates islands, so React stays in that module's chunk (one file fewer).
  return import('./islands').then(() => new Promise((resolve) => setTimeout(resolve))).then(load);
}

/** The same, once the first frame is painted: the page paints from its HTML before any code is requested. */
export function loadIslandsAfterFirstFrame(load: () => Promise<unknown>): void {
  requestAnimationFrame(() => setTimeout(() => void loadIslands(load)));
}
