import type { Page } from '@playwright/test';

/**
 * Stops the page's clock (installed before it loaded) a second ahead of its time now: from here its
 * timers and idle callbacks fire only as the test moves it with `runFor`, however busy the machine is.
 */
export async function holdClock(page: Page): Promise<void> {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
}

/**
 * Lets the page finish the work React queued after its last commit (the effects it runs after
 * painting) before the test looks or moves the clock: a message posted now is handled after React's.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}
