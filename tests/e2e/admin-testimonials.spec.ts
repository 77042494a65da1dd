import { expect, request, test, type Browser, type BrowserContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { useAdminAccount } from './support/admin';
import { withDb } from './support/db';

/**
 * The admin area against the running server: sign-in and its redirects, and the testimonial
 * manager end to end (the landing page shows what was created and stops showing what was deleted).
 */
const admin = useAdminAccount('admin');

type Cookies = Awaited<ReturnType<BrowserContext['cookies']>>;

/** Signs in once for every manager test (sign-in attempts per address are rate-limited) and keeps the cookie. */
async function signInOnce(baseURL: string): Promise<Cookies> {
  const context = await request.newContext({ baseURL });
  const response = await context.post('/api/admin/login', { data: admin });
  expect(response.status()).toBe(200);
  const { cookies } = await context.storageState();
  await context.dispose();
  return cookies;
}

/** The landing page as a new visitor sees it: a fresh context, so no cached featured list. */
async function landingText(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const featured = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/testimonials/featured');
  await page.goto('/');
  await featured;
  const text = (await page.locator('main').textContent()) ?? '';
  await context.close();
  return text;
}

test.describe('admin sign-in', () => {
  test('an admin page without a session goes to sign-in, then back where the admin was going', async ({ page }) => {
    await page.goto('/admin/testimonials');
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Ftestimonials$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin sign in' })).toBeVisible();

    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('not the right password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page.getByLabel('Password')).toHaveValue('');

    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin\/testimonials$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage Testimonials' })).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/admin\/login/);
    await page.goto('/admin/testimonials');
    await expect(page).toHaveURL(/\/admin\/login\?next=/);
    expect((await page.request.get('/api/testimonials')).status()).toBe(401);
  });

  for (const next of ['//evil.example.com/admin', 'https://evil.example.com/admin', '/checkout', '/admin/login']) {
    test(`next=${next} is not followed: the admin lands on /admin`, async ({ page }) => {
      await page.goto(`/admin/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/admin$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Testimonials' })).toHaveAttribute('href', '/admin/testimonials');
      await expect(page.getByRole('link', { name: 'Queues' })).toHaveAttribute('href', '/admin/queues');
    });
  }
});

test.describe('testimonial manager', () => {
  let session: Cookies = [];
  test.beforeAll(async ({ baseURL }) => {
    session = await signInOnce(String(baseURL));
  });
  test.beforeEach(async ({ context }) => {
    await context.addCookies(session);
  });

  test('a featured testimonial created here appears on the landing page, and is gone once deleted', async ({ page, browser }) => {
    const name = `E2E Member ${randomBytes(3).toString('hex')}`;
    await page.goto('/admin/testimonials');
    const form = page.getByTestId('testimonial-create-form');
    await expect(page.getByRole('heading', { level: 2, name: 'Add New Testimonial' })).toBeVisible();
    await expect(form.getByLabel('Testimonial Content')).toHaveAttribute('rows', '4');

    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Title/Role').fill('Teacher');
    await form.getByLabel('Testimonial Content').fill('I changed my mornings. <b>Plain text</b>');
    await form.getByLabel('Video URL (Optional)').fill('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
    await form.getByLabel('Featured (show on landing page)').check();
    const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/testimonials');
    await form.getByRole('button', { name: 'Add Testimonial' }).click();
    expect((await posted).postDataJSON()).toEqual({
      name,
      title: 'Teacher',
      content: 'I changed my mornings. <b>Plain text</b>',
      videoUrl: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
      imageUrl: null,
      rating: 5,
      featured: true,
    });

    await expect(page.getByTestId('toast')).toContainText('Testimonial created successfully');
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(form.getByLabel('Featured (show on landing page)')).not.toBeChecked();
    const item = page.getByTestId('admin-testimonial').filter({ hasText: name });
    await expect(item).toContainText('Teacher');
    await expect(item.getByRole('img', { name: 'Featured' })).toBeVisible();
    await expect(item.getByRole('img', { name: 'Has video' })).toBeVisible();
    await expect(item.getByTestId('admin-testimonial-content')).toHaveText('I changed my mornings. <b>Plain text</b>');
    await expect(item.getByTestId('admin-testimonial-content')).toHaveCSS('-webkit-line-clamp', '2');

    expect(await landingText(browser)).toContain(name);

    await item.getByRole('button', { name: 'Delete' }).click();
    await expect(item).toContainText(`Delete the testimonial from ${name}?`);
    await item.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByTestId('toast')).toContainText('Testimonial deleted');
    await expect(page.getByTestId('admin-testimonial').filter({ hasText: name })).toHaveCount(0);

    expect(await landingText(browser)).not.toContain(name);
  });

  test('cancelling the confirmation keeps the testimonial; editing changes it', async ({ page }) => {
    const name = `E2E Edit ${randomBytes(3).toString('hex')}`;
    const [{ id }] = await withDb(
      async (client) =>
        (
          await client.query(
            `INSERT INTO testimonials (name, title, content, featured) VALUES ($1, 'Coach', 'Before', false) RETURNING id`,
            [name],
          )
        ).rows,
    );
    try {
      await page.goto('/admin/testimonials');
      const item = page.getByTestId('admin-testimonial').filter({ hasText: name });
      await expect(item.getByRole('img', { name: 'Featured' })).toHaveCount(0);
      await expect(item.getByRole('img', { name: 'Has video' })).toHaveCount(0);
      await item.getByRole('button', { name: 'Delete' }).click();
      await item.getByRole('button', { name: 'Cancel' }).click();
      await expect(item).toBeVisible();

      await item.getByRole('button', { name: 'Edit' }).click();
      const editor = page.getByTestId('testimonial-edit-form');
      await editor.getByLabel('Testimonial Content').fill('After');
      await editor.getByLabel('Rating').selectOption('3');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByTestId('toast')).toContainText('Testimonial updated');
      await expect(item).toContainText('After');
      await expect(item).toContainText('3 of 5 stars');
      const [row] = await withDb(
        async (client) => (await client.query('SELECT content, rating FROM testimonials WHERE id = $1', [id])).rows,
      );
      expect(row).toEqual({ content: 'After', rating: 3 });
    } finally {
      await withDb((client) => client.query('DELETE FROM testimonials WHERE id = $1', [id]));
    }
  });

  test('validation messages, and nothing is sent while the form is invalid', async ({ page }) => {
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/testimonials') posts += 1;
    });
    await page.goto('/admin/testimonials');
    const form = page.getByTestId('testimonial-create-form');
    await form.getByRole('button', { name: 'Add Testimonial' }).click();
    await expect(form.getByTestId('error-name')).toHaveText('Name is required');
    await expect(form.getByTestId('error-title')).toHaveText('Title is required');
    await expect(form.getByTestId('error-content')).toHaveText('Content is required');
    await expect(form.getByLabel('Name')).toBeFocused();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Name').fill('Someone');
    await form.getByLabel('Title/Role').fill('Role');
    await form.getByLabel('Testimonial Content').fill('Words');
    await form.getByLabel('Video URL (Optional)').fill('javascript:alert(1)');
    await form.getByLabel('Image URL (Optional)').fill('data:image/png;base64,AAAA');
    await form.getByRole('button', { name: 'Add Testimonial' }).click();
    await expect(form.getByTestId('error-videoUrl')).toHaveText('Enter a full http(s) URL, such as https://example.com/video');
    await expect(form.getByTestId('error-imageUrl')).toHaveText('Enter a full http(s) URL, such as https://example.com/video');
    await expect(form.getByTestId('error-name')).toHaveCount(0);
    await expect(form.getByLabel('Video URL (Optional)')).toBeFocused();
    expect(posts).toBe(0);
  });

  test.describe('screen: the manager on a stubbed API answer', () => {
    test('the list shows its empty state', async ({ page }) => {
      // Answered in the browser: emptying the shared table would disturb specs running alongside.
      await page.route('**/api/testimonials', (route) =>
        route.request().method() === 'GET' ? route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }) : route.fallback(),
      );
      await page.goto('/admin/testimonials');
      await expect(page.getByRole('heading', { level: 2, name: 'Existing Testimonials' })).toBeVisible();
      await expect(page.getByTestId('testimonials-empty')).toHaveText('No testimonials yet');
      await expect(page.getByTestId('admin-testimonial')).toHaveCount(0);
    });

    test('a refused create shows the destructive toast and keeps the form; a failed delete says so', async ({ page }) => {
      await page.route('**/api/testimonials', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Name must be at most 200 characters' }),
            })
          : route.fallback(),
      );
      await page.goto('/admin/testimonials');
      const form = page.getByTestId('testimonial-create-form');
      await form.getByLabel('Name').fill('Kept Name');
      await form.getByLabel('Title/Role').fill('Role');
      await form.getByLabel('Testimonial Content').fill('Words');
      await form.getByRole('button', { name: 'Add Testimonial' }).click();
      const toast = page.getByTestId('toast');
      await expect(toast).toContainText('Error creating testimonial');
      await expect(toast).toContainText('Name must be at most 200 characters');
      await expect(toast).toHaveClass(/toast--destructive/);
      await expect(toast).toHaveAttribute('role', 'alert');
      await expect(form.getByLabel('Name')).toHaveValue('Kept Name');

      const name = `E2E Undeletable ${randomBytes(3).toString('hex')}`;
      const [{ id }] = await withDb(
        async (client) =>
          (
            await client.query(`INSERT INTO testimonials (name, title, content, featured) VALUES ($1, 'T', 'C', false) RETURNING id`, [
              name,
            ])
          ).rows,
      );
      try {
        await page.route(`**/api/testimonials/${id}`, (route) =>
          route.request().method() === 'DELETE'
            ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' })
            : route.fallback(),
        );
        await page.reload();
        const item = page.getByTestId('admin-testimonial').filter({ hasText: name });
        await item.getByRole('button', { name: 'Delete' }).click();
        await item.getByRole('button', { name: 'Yes, delete' }).click();
        await expect(toast).toContainText('Error deleting testimonial');
        await expect(toast).toContainText('The testimonial was not deleted. Please try again.');
        await expect(item).toBeVisible();
      } finally {
        await withDb((client) => client.query('DELETE FROM testimonials WHERE id = $1', [id]));
      }
    });
  });
});
