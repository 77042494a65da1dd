import { isAppRoute } from './routes';

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
