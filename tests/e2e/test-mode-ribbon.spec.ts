import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { checkoutUrl, payButton } from './support/checkout';

/**
 * The suite's stack takes payments in the sandbox (no real money), so every buyer page says so:
 * the server puts a ribbon in each document (backend/src/common/test-mode-ribbon.ts). A live
 * deployment sends none (tests/integration/page-documents.spec.ts).
 */
const RIBBON_TEXT = 'Test mode: no real charges';
const ribbon = (page: Page) => page.getByRole('complementary', { name: 'Test mode' });

/** Whether two boxes share any area. */
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
type Box = { x: number; y: number; width: number; height: number };

/** The boxes of every visible control inside the viewport. */
async function controlBoxes(controls: Locator): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    if (box && box.width > 0 && box.height > 0) boxes.push(box);
  }
  return boxes;
}

test.describe('the test-mode ribbon', () => {
  for (const path of ['/', '/checkout?plan=standard', '/upsell']) {
    test(`${path} says 'Test mode: no real charges', once, after hydration too`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByText(RIBBON_TEXT)).toBeVisible();
      await expect(ribbon(page)).toHaveText(RIBBON_TEXT);
      await page.waitForLoadState('networkidle');
      await expect(page.getByText(RIBBON_TEXT)).toHaveCount(1);
    });
  }

  test('the documents carrying it still go out compressed', async ({ request }) => {
    for (const path of ['/', '/checkout', '/upsell']) {
      const response = await request.get(path, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
      expect(response.headers()['content-encoding'], path).toMatch(/^(br|gzip)$/);
      expect(await response.text(), path).toContain(RIBBON_TEXT);
    }
  });

  test('with JavaScript disabled the prerendered page shows it too', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/upsell');
      await expect(page.getByText(RIBBON_TEXT)).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test('on a 390 px phone it covers no control of the landing page or checkout, shifts nothing, and axe finds nothing', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      for (const url of ['/', checkoutUrl({ plan: 'standard', email: 'ribbon@example.com', name: 'Rib Bon' })]) {
        await page.goto(url);
        if (url !== '/') await expect(payButton(page)).toBeEnabled();
        const ribbonBox = await ribbon(page).boundingBox();
        expect(ribbonBox, url).not.toBeNull();
        const controls = await controlBoxes(page.locator('a, button, input, select, textarea, [role="button"]'));
        expect(controls.length, url).toBeGreaterThan(0);
        expect(
          controls.filter((box) => overlaps(box, ribbonBox!)),
          url,
        ).toEqual([]);
        expect(await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts), url).toEqual([]);
        await expectNoAxeViolations(page);
      }
    } finally {
      await context.close();
    }
  });
});
