import request from 'supertest';
import { Stack, startStack } from './support/stack';

describe('GET /api/testimonials/featured', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({}, { worker: false });
    await stack.db.query('TRUNCATE testimonials');
    await stack.db.query(
      `INSERT INTO testimonials (name, title, content, video_url, image_url, rating, featured, display_order) VALUES
        ('Second', 'Coach', 'B', NULL, 'https://img.example.com/b.jpg', 4, true, 2),
        ('Hidden', 'Not featured', 'X', NULL, NULL, 5, false, 0),
        ('First', 'Founder', '<b>A</b>', 'https://video.example.com/a', NULL, 5, true, 1),
        ('Unsafe', 'Script', 'C', 'javascript:alert(1)', 'data:text/html,hi', 3, true, 3)`,
    );
  });
  afterAll(async () => {
    await stack?.db.query('TRUNCATE testimonials');
    await stack?.stop();
  });

  it('returns only featured testimonials, in display order, with exactly the spec fields', async () => {
    const res = await request(stack.url).get('/api/testimonials/featured').expect(200);
    expect(res.body.map((t: { name: string }) => t.name)).toEqual(['First', 'Second', 'Unsafe']);
    for (const t of res.body) {
      expect(Object.keys(t).sort()).toEqual(['content', 'id', 'imageUrl', 'name', 'rating', 'title', 'videoUrl']);
    }
    expect(res.body[0]).toMatchObject({
      name: 'First',
      title: 'Founder',
      content: '<b>A</b>',
      videoUrl: 'https://video.example.com/a',
      imageUrl: null,
      rating: 5,
    });
    expect(res.body[1]).toMatchObject({ imageUrl: 'https://img.example.com/b.jpg', videoUrl: null, rating: 4 });
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  it('never hands a non-http(s) URL to the browser', async () => {
    const res = await request(stack.url).get('/api/testimonials/featured').expect(200);
    expect(res.body[2]).toMatchObject({ name: 'Unsafe', videoUrl: null, imageUrl: null });
  });

  it('answers an empty list when nothing is featured', async () => {
    await stack.db.query('UPDATE testimonials SET featured = false');
    const res = await request(stack.url).get('/api/testimonials/featured').expect(200);
    expect(res.body).toEqual([]);
    await stack.db.query(`UPDATE testimonials SET featured = true WHERE name <> 'Hidden'`);
  });
});
