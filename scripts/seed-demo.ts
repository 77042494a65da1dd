import { Client } from 'pg';

/** Demo rows for a fresh `npm start`: marked as demo so nobody mistakes them for real members. */
const DEMO_TESTIMONIALS = [
  {
    name: 'Sample Member A (demo)',
    title: 'Entrepreneur — demo testimonial',
    content:
      'Demo testimonial. Within the first month my mornings changed: one clear intention a day, one aligned action. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: null,
    rating: 5,
  },
  {
    name: 'Sample Member B (demo)',
    title: 'Nurse and mother of two — demo testimonial',
    content: 'Demo testimonial. The weekly calls kept me honest and the community kept me going. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    rating: 5,
  },
  {
    name: 'Sample Member C (demo)',
    title: 'Sales manager — demo testimonial',
    content: 'Demo testimonial. I finally stopped planning and started acting. Replace this text in /admin/testimonials.',
    image_url: null,
    video_url: null,
    rating: 4,
  },
];

/** Seeds once per database (remembered in seed_runs), so deleting a demo row keeps it deleted. */
export async function seedDemoTestimonials(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const claimed = await client.query(`INSERT INTO seed_runs (name) VALUES ('demo-testimonials') ON CONFLICT DO NOTHING RETURNING name`);
    if (claimed.rowCount === 0) {
      await client.query('ROLLBACK');
      return false;
    }
    for (const [order, t] of DEMO_TESTIMONIALS.entries()) {
      await client.query(
        `INSERT INTO testimonials (name, title, content, image_url, video_url, rating, featured, display_order)
         VALUES ($1, $2, $3, $4, $5, $6, true, $7)`,
        [t.name, t.title, t.content, t.image_url, t.video_url, t.rating, order],
      );
    }
    await client.query('COMMIT');
    return true;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    await client.end();
  }
}
