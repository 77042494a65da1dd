import { expect, type Page } from '@playwright/test';

/** A unique address per run and call, so lead tests never collide with earlier data. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Opens the landing page and waits until React has hydrated the prerendered markup: the submit
 * button is disabled until then, so its enabled state is the signal.
 */
export async function openLanding(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('lead-submit')).toBeEnabled();
}
