import { isAppRoute } from './route-table';
import { isAdminPath } from './routes';

describe('isAppRoute', () => {
  it.each(['/', '/checkout', '/CHECKOUT', '/checkout/', '/admin/testimonials', '/Blackcard-Upsell', '/admin', '/admin/login'])(
    'knows %s',
    (path) => {
      expect(isAppRoute(path)).toBe(true);
    },
  );
  it.each(['/nope', '/checkout/extra', '/admin/queues', '/admin/unknown', '/api/leads', '/checkout.html'])('does not know %s', (path) => {
    expect(isAppRoute(path)).toBe(false);
  });
});

describe('isAdminPath', () => {
  it.each(['/admin', '/admin/', '/Admin/Testimonials', '/admin/login', '/admin/queues/api/queues', '/admin/unknown'])(
    '%s is in the admin area',
    (path) => {
      expect(isAdminPath(path)).toBe(true);
    },
  );
  it.each(['/', '/administrator', '/admin.html', '/checkout', '/api/admin/session', '/x/admin'])('%s is not', (path) => {
    expect(isAdminPath(path)).toBe(false);
  });
});
