import { expect, test, type Page } from '@playwright/test';
import { site } from '@contracts/site/site';
import { expectNoAxeViolations } from './support/axe';
import { openLanding } from './support/landing';

/**
 * The default site's theme (site/theme.json) reaches the pages as CSS custom properties, and the
 * pages look as they did when their colours were written into the stylesheets: the computed
 * colours below are those literal values. Its themeColor is the document's theme-color.
 */
const computed = (page: Page, selector: string, properties: string[], pseudo?: string) =>
  page
    .locator(selector)
    .first()
    .evaluate(
      (element, [names, after]) => {
        const style = getComputedStyle(element, after);
        return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
      },
      [properties, pseudo] as const,
    );

test.describe('the theme', () => {
  test.beforeEach(async ({ page }) => openLanding(page));

  test("paints the landing page in the default theme's colours and fonts, as before the tokens", async ({ page }) => {
    expect(await computed(page, 'body', ['color', 'background-color', 'font-family'])).toEqual({
      color: 'rgb(15, 23, 42)',
      'background-color': 'rgba(0, 0, 0, 0)',
      'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    });
    expect(await computed(page, 'html', ['background-color'])).toEqual({ 'background-color': 'rgb(255, 255, 255)' });
    expect(await computed(page, '.hero', ['color', 'background-color'])).toEqual({
      color: 'rgb(255, 255, 255)',
      'background-color': 'rgb(11, 19, 36)',
    });
    expect(await computed(page, '.hero__backdrop', ['background-image'], '::after')).toEqual({
      'background-image': 'linear-gradient(rgba(11, 19, 36, 0.55), rgba(11, 19, 36, 0.85))',
    });
    expect(await computed(page, '[data-testid="cta-hero"]', ['color', 'background-color', 'border-top-color', 'box-shadow'])).toEqual({
      color: 'rgb(26, 18, 4)',
      'background-color': 'rgb(245, 185, 66)',
      'border-top-color': 'rgb(217, 154, 30)',
      'box-shadow': 'rgba(245, 185, 66, 0.25) 0px 8px 24px 0px',
    });
    expect(await computed(page, '.field input', ['border-top-color', 'background-color', 'color'])).toEqual({
      'border-top-color': 'rgb(148, 163, 184)',
      'background-color': 'rgb(255, 255, 255)',
      color: 'rgb(15, 23, 42)',
    });
    expect(await computed(page, '.faq', ['border-top-color'])).toEqual({ 'border-top-color': 'rgb(219, 225, 234)' });
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0b1324');
  });

  test('keeps every text readable against its background (axe colour contrast)', async ({ page }) => {
    await expectNoAxeViolations(page);
  });

  test("keeps the sender's and the owner's addresses, worker settings, out of the scripts every visitor loads", async ({ page }) => {
    const owner = site.brand.ownerEmail;
    expect(owner).toMatch(/@/);
    const scripts: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text());
    });
    await page.reload();
    await expect(page.getByTestId('lead-submit')).toBeEnabled();
    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    // The site settings are in the scripts (the brand is), but not the worker's addresses.
    expect(bodies.join('\n')).toContain(site.brand.name);
    expect(bodies.join('\n')).not.toContain(site.brand.sender.address);
    expect(bodies.join('\n')).not.toContain(owner);
  });
});
