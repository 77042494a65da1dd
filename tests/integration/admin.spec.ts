import request from 'supertest';
import * as passwordHasher from '../../backend/src/modules/admin/password-hasher';
import { adminCreate } from './support/admin';
import { resetRateLimits, Stack, startStack } from './support/stack';

const ADMIN = { email: 'Admin.Tester@Example.com', password: 'a long enough admin password' };
const OTHER = { email: 'second.admin@example.com', password: 'another long admin password' };
const LOGIN_FAILED = { statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password' };
const UNAUTHENTICATED = 'Please sign in as an admin to continue.';
const CSRF_REFUSED = 'Missing or invalid CSRF token. Reload the page and try again.';
const PER_EMAIL_LIMIT = 8;
const PER_CLIENT_LIMIT = 60;

interface Session {
  cookie: string;
  csrfToken: string;
}

describe('admin sign-in and the testimonial manager API', () => {
  let stack: Stack;
  let api: ReturnType<typeof request>;
  let session: Session;

  const login = (email: string, password: string) => api.post('/api/admin/login').send({ email, password });
  const signIn = async (who = ADMIN): Promise<Session> => {
    const res = await login(who.email, who.password).expect(200);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    return { cookie: setCookie[0].split(';')[0], csrfToken: res.body.csrfToken };
  };
  const auditActions = async (): Promise<{ admin_id: string | null; action: string; target: string | null; client_ip: string | null }[]> =>
    stack.db.query('SELECT admin_id, action, target, client_ip FROM admin_audit_log ORDER BY id');
  const adminId = async (email: string): Promise<string> =>
    (await stack.db.query('SELECT id FROM admin_accounts WHERE email_normalized = $1', [email.toLowerCase()]))[0].id;

  beforeAll(async () => {
    stack = await startStack(
      {
        ADMIN_LOGINS_PER_EMAIL: String(PER_EMAIL_LIMIT),
        ADMIN_LOGINS_PER_CLIENT: String(PER_CLIENT_LIMIT),
        ADMIN_LOGIN_WINDOW_MS: '600000',
      },
      { worker: false },
    );
    api = request(stack.url);
    await stack.db.query('TRUNCATE testimonials, admin_accounts, admin_sessions, admin_audit_log CASCADE');
    for (const who of [ADMIN, OTHER]) {
      const created = await adminCreate(who.email, who.password);
      expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('Admin account created') });
    }
    session = await signIn();
  });
  afterAll(async () => {
    await stack?.db.query('TRUNCATE testimonials, admin_accounts, admin_sessions, admin_audit_log CASCADE');
    await stack?.stop();
  });

  describe('the admin-create command', () => {
    it('stores the account under its normalised e-mail with an argon2id hash, never the password', async () => {
      const rows = await stack.db.query('SELECT email, email_normalized, password_hash FROM admin_accounts WHERE email = $1', [
        ADMIN.email,
      ]);
      expect(rows).toEqual([
        { email: ADMIN.email, email_normalized: 'admin.tester@example.com', password_hash: expect.stringMatching(/^\$argon2id\$/) },
      ]);
      expect(rows[0].password_hash).not.toContain(ADMIN.password);
    });

    it('refuses a password shorter than 12 characters and creates nothing', async () => {
      const result = await adminCreate('short.password@example.com', 'elevenchars');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('at least 12 characters');
      expect(await stack.db.query(`SELECT 1 FROM admin_accounts WHERE email_normalized = 'short.password@example.com'`)).toEqual([]);
    });

    it('sets a new password on an existing account and signs it out everywhere', async () => {
      const before = await signIn(OTHER);
      const changed = { ...OTHER, password: 'a replaced admin password' };
      expect(await adminCreate('SECOND.admin@example.com', changed.password)).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('Password updated'),
      });
      await api.get('/api/admin/session').set('cookie', before.cookie).expect(401);
      await login(OTHER.email, OTHER.password).expect(401);
      await signIn(changed);
      expect(
        await stack.db.query(`SELECT count(*)::int AS n FROM admin_accounts WHERE email_normalized = 'second.admin@example.com'`),
      ).toEqual([{ n: 1 }]);
    });
  });

  describe('without a session', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    it.each([
      ['GET', '/api/admin/session'],
      ['POST', '/api/admin/logout'],
      ['GET', '/api/testimonials'],
      ['POST', '/api/testimonials'],
      ['PATCH', `/api/testimonials/${id}`],
      ['DELETE', `/api/testimonials/${id}`],
    ])('%s %s answers 401 with a message', async (method, path) => {
      const res = await api[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path).send(
        method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
      );
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, message: UNAUTHENTICATED });
    });

    it('a forged or unknown session cookie is no session', async () => {
      await api.get('/api/testimonials').set('cookie', 'admin_session=not-a-real-session').expect(401);
    });

    it('the landing page list stays public', async () => {
      await api.get('/api/testimonials/featured').expect(200);
    });
  });

  describe('signing in', () => {
    it('sets an httpOnly, SameSite=Strict session cookie and answers the CSRF token; the database keeps only a hash', async () => {
      const res = await login(ADMIN.email.toUpperCase(), ADMIN.password).expect(200);
      const cookie = ([] as string[]).concat(res.headers['set-cookie'])[0];
      expect(cookie).toMatch(/^admin_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        email: ADMIN.email,
        csrfToken: expect.any(String),
        expiresAt: expect.any(String),
        paymentProvider: 'sandbox',
      });
      const sessionId = cookie.split(';')[0].split('=')[1];
      const stored: { id_hash: string }[] = await stack.db.query('SELECT id_hash FROM admin_sessions');
      expect(stored.map((row) => row.id_hash)).not.toContain(sessionId);
      expect(JSON.stringify(stored)).not.toContain(sessionId);

      const current = await api.get('/api/admin/session').set('cookie', cookie.split(';')[0]).expect(200);
      expect(current.body).toEqual(res.body);
      const [account] = await stack.db.query('SELECT last_login_at FROM admin_accounts WHERE email = $1', [ADMIN.email]);
      expect(account.last_login_at).not.toBeNull();
    });

    it('answers a wrong password and an unknown e-mail identically', async () => {
      const wrongPassword = await login(ADMIN.email, 'not the password at all').expect(401);
      const unknownEmail = await login('nobody.here@example.com', ADMIN.password).expect(401);
      const { requestId: _a, ...wrong } = wrongPassword.body;
      const { requestId: _b, ...unknown } = unknownEmail.body;
      expect(wrong).toEqual(LOGIN_FAILED);
      expect(unknown).toEqual(wrong);
      expect(wrongPassword.headers['set-cookie']).toBeUndefined();
      expect(unknownEmail.headers['set-cookie']).toBeUndefined();
    });

    it('spends the same password-hashing work on an unknown e-mail as on a wrong password', async () => {
      // Counted, not timed: one argon2id verification per attempt, with the same parameters either way.
      const verify = jest.spyOn(passwordHasher, 'verifyPassword');
      try {
        await login(OTHER.email, 'wrong password for hashing').expect(401);
        await login('hashing.unknown@example.com', 'wrong password for hashing').expect(401);
        expect(verify).toHaveBeenCalledTimes(2);
        const [[known], [unknown]] = verify.mock.calls;
        const [stored] = await stack.db.query('SELECT password_hash FROM admin_accounts WHERE email = $1', [OTHER.email]);
        expect(known).toBe(stored.password_hash);
        // The PHC string's algorithm, version and cost ($argon2id$v=19$m=…,t=…,p=…$): what the work depends on.
        const cost = (phc: string) => phc.split('$').slice(1, 4).join('$');
        expect(unknown).not.toBe(known);
        expect(cost(unknown)).toBe(cost(known));
        expect(cost(known)).toMatch(/^argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
      } finally {
        verify.mockRestore();
      }
    });

    it('refuses a body without a password with a readable 400', async () => {
      const res = await api.post('/api/admin/login').send({ email: ADMIN.email }).expect(400);
      expect(res.body.message).toBe('Please enter your password');
    });
  });

  describe('CSRF protection', () => {
    const body = { name: 'Csrf Case', title: 'Tester', content: 'Should not be saved' };

    it('refuses a mutating call without the token, or with a wrong one, with 403 and saves nothing', async () => {
      const missing = await api.post('/api/testimonials').set('cookie', session.cookie).send(body).expect(403);
      expect(missing.body.message).toBe(CSRF_REFUSED);
      const wrong = await api
        .post('/api/testimonials')
        .set('cookie', session.cookie)
        .set('x-csrf-token', `${session.csrfToken.slice(0, -2)}xx`)
        .send(body)
        .expect(403);
      expect(wrong.body.message).toBe(CSRF_REFUSED);
      const otherSession = await signIn(ADMIN);
      await api.post('/api/testimonials').set('cookie', session.cookie).set('x-csrf-token', otherSession.csrfToken).send(body).expect(403);
      await api.post('/api/admin/logout').set('cookie', session.cookie).expect(403);
      expect(await stack.db.query(`SELECT 1 FROM testimonials WHERE name = 'Csrf Case'`)).toEqual([]);
    });

    it('accepts the token of the session', async () => {
      await api.post('/api/testimonials').set('cookie', session.cookie).set('x-csrf-token', session.csrfToken).send(body).expect(201);
    });
  });

  describe('testimonials', () => {
    const send = (method: 'post' | 'patch' | 'delete', path: string) =>
      api[method](path).set('cookie', session.cookie).set('x-csrf-token', session.csrfToken);
    const create = (body: Record<string, unknown>) => send('post', '/api/testimonials').send(body);
    const featuredNames = async () => (await api.get('/api/testimonials/featured').expect(200)).body.map((t: { name: string }) => t.name);

    beforeAll(async () => {
      await stack.db.query('TRUNCATE testimonials');
    });

    it('creates with the spec body, rating 5 by default, and lists every testimonial in the spec shape', async () => {
      const res = await create({
        name: 'Ana',
        title: 'Founder',
        content: 'It changed my mornings.',
        videoUrl: '',
        imageUrl: '',
        featured: true,
      }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Ana',
        title: 'Founder',
        content: 'It changed my mornings.',
        videoUrl: null,
        imageUrl: null,
        featured: true,
        rating: 5,
        displayOrder: 0,
      });
      await create({
        name: 'Ben',
        title: 'Nurse',
        content: 'Hidden one',
        videoUrl: 'https://video.example.com/b',
        imageUrl: null,
        rating: 4,
        featured: false,
      }).expect(201);
      const list = await api.get('/api/testimonials').set('cookie', session.cookie).expect(200);
      expect(list.headers['cache-control']).toBe('no-store');
      expect(list.body.map((t: { name: string }) => t.name)).toEqual(['Ana', 'Ben']);
      for (const t of list.body) {
        expect(Object.keys(t).sort()).toEqual([
          'content',
          'displayOrder',
          'featured',
          'id',
          'imageUrl',
          'name',
          'rating',
          'title',
          'videoUrl',
        ]);
      }
      expect(list.body[1]).toMatchObject({ videoUrl: 'https://video.example.com/b', rating: 4, featured: false });
      expect(await featuredNames()).toEqual(['Ana']);
    });

    it('stores HTML in the content as text and returns it unchanged', async () => {
      const content = '<script>alert("x")</script><img src=x onerror=alert(1)> & <b>bold</b>\nsecond line';
      const res = await create({ name: '<i>Html</i>', title: 'Tag & co', content, featured: true }).expect(201);
      const [row] = await stack.db.query('SELECT name, content FROM testimonials WHERE id = $1', [res.body.id]);
      expect(row).toEqual({ name: '<i>Html</i>', content });
      const list = await api.get('/api/testimonials').set('cookie', session.cookie).expect(200);
      expect(list.body.find((t: { id: string }) => t.id === res.body.id)).toMatchObject({
        name: '<i>Html</i>',
        title: 'Tag & co',
        content,
      });
      const featured = await api.get('/api/testimonials/featured').expect(200);
      expect(featured.body.find((t: { id: string }) => t.id === res.body.id).content).toBe(content);
    });

    it.each([
      ['videoUrl', 'javascript:alert(1)', 'Video URL must be an http(s) URL'],
      ['imageUrl', 'data:image/png;base64,AAAA', 'Image URL must be an http(s) URL'],
      ['videoUrl', 'vbscript:msgbox(1)', 'Video URL must be an http(s) URL'],
      ['imageUrl', 'ftp://files.example.com/a.jpg', 'Image URL must be an http(s) URL'],
      ['videoUrl', '/relative/path', 'Video URL must be an http(s) URL'],
      ['imageUrl', 'JaVaScRiPt:alert(1)', 'Image URL must be an http(s) URL'],
      ['videoUrl', 'https://ok.example.com/a b', 'Video URL must be an http(s) URL'],
    ])('refuses %s %p with 400', async (field, value, message) => {
      const res = await create({ name: 'Bad Url', title: 'T', content: 'C', [field]: value }).expect(400);
      expect(res.body.message).toContain(message);
      expect(await stack.db.query(`SELECT 1 FROM testimonials WHERE name = 'Bad Url'`)).toEqual([]);
    });

    it.each([
      [{ title: 'T', content: 'C' }, 'Name is required'],
      [{ name: '   ', title: 'T', content: 'C' }, 'Name is required'],
      [{ name: 'N', title: '', content: 'C' }, 'Title is required'],
      [{ name: 'N', title: 'T' }, 'Content is required'],
      [{ name: 'N', title: 'T', content: 'C', rating: 6 }, 'Rating must be a whole number from 1 to 5'],
      [{ name: 'N', title: 'T', content: 'C', featured: 'yes' }, 'featured must be true or false'],
      [{ name: 'N', title: 'T', content: 'C', extra: 1 }, 'Unknown field "extra" is not allowed'],
    ])('refuses %p with %p', async (body, message) => {
      const res = await create(body).expect(400);
      expect(res.body.message).toBe(message);
    });

    it('edits fields, toggles featured and sets the rating; a bad edit changes nothing', async () => {
      const { body: created } = await create({ name: 'Cara', title: 'Coach', content: 'Before', featured: false }).expect(201);
      const edited = await send('patch', `/api/testimonials/${created.id}`)
        .send({ content: 'After', rating: 3, featured: true })
        .expect(200);
      expect(edited.body).toMatchObject({ id: created.id, name: 'Cara', content: 'After', rating: 3, featured: true });
      expect(await featuredNames()).toContain('Cara');
      await send('patch', `/api/testimonials/${created.id}`).send({ featured: false }).expect(200);
      expect(await featuredNames()).not.toContain('Cara');
      const refused = await send('patch', `/api/testimonials/${created.id}`)
        .send({ name: 'Changed', imageUrl: 'javascript:alert(1)' })
        .expect(400);
      expect(refused.body.message).toContain('Image URL must be an http(s) URL');
      await send('patch', `/api/testimonials/${created.id}`).send({ name: null }).expect(400);
      await send('patch', `/api/testimonials/${created.id}`).send({ rating: 0 }).expect(400);
      const [row] = await stack.db.query('SELECT name, rating FROM testimonials WHERE id = $1', [created.id]);
      expect(row).toEqual({ name: 'Cara', rating: 3 });
      await send('patch', '/api/testimonials/00000000-0000-4000-8000-000000000000').send({ rating: 4 }).expect(404);
    });

    it('sets the display order of featured testimonials, which the landing page follows', async () => {
      await stack.db.query('UPDATE testimonials SET featured = false');
      const ids: string[] = [];
      for (const name of ['One', 'Two', 'Three'])
        ids.push((await create({ name, title: 'T', content: 'C', featured: true }).expect(201)).body.id);
      expect(await featuredNames()).toEqual(['One', 'Two', 'Three']);
      const moved = await send('patch', `/api/testimonials/${ids[2]}`).send({ displayOrder: 0 }).expect(200);
      expect(moved.body.displayOrder).toBe(0);
      expect(await featuredNames()).toEqual(['Three', 'One', 'Two']);
      await send('patch', `/api/testimonials/${ids[2]}`).send({ displayOrder: 99 }).expect(200);
      expect(await featuredNames()).toEqual(['One', 'Two', 'Three']);
      const list = await api.get('/api/testimonials').set('cookie', session.cookie).expect(200);
      expect(list.body.slice(0, 3).map((t: { name: string; displayOrder: number }) => [t.name, t.displayOrder])).toEqual([
        ['One', 0],
        ['Two', 1],
        ['Three', 2],
      ]);
    });

    it('deletes, and a second delete or a malformed id says so', async () => {
      const { body: created } = await create({ name: 'Gone Soon', title: 'T', content: 'C', featured: true }).expect(201);
      await send('delete', `/api/testimonials/${created.id}`).expect(204);
      expect(await featuredNames()).not.toContain('Gone Soon');
      const again = await send('delete', `/api/testimonials/${created.id}`).expect(404);
      expect(again.body.message).toMatch(/no longer exists/);
      const malformed = await send('delete', '/api/testimonials/not-a-uuid').expect(400);
      expect(malformed.body.message).toBe('The testimonial id is not valid');
    });
  });

  describe('sessions end', () => {
    it('an expired session is no session', async () => {
      const temporary = await signIn();
      await api.get('/api/admin/session').set('cookie', temporary.cookie).expect(200);
      const sessionId = temporary.cookie.split('=')[1];
      const { createHash } = await import('node:crypto');
      const idHash = createHash('sha256').update(sessionId).digest('hex');
      await stack.db.query(`UPDATE admin_sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1`, [idHash]);
      const res = await api.get('/api/admin/session').set('cookie', temporary.cookie).expect(401);
      expect(res.body.message).toBe(UNAUTHENTICATED);
      await api.get('/api/testimonials').set('cookie', temporary.cookie).expect(401);
    });

    it('signing out deletes the session and clears the cookie', async () => {
      const temporary = await signIn();
      const before = (await stack.db.query('SELECT count(*)::int AS n FROM admin_sessions'))[0].n;
      const res = await api.post('/api/admin/logout').set('cookie', temporary.cookie).set('x-csrf-token', temporary.csrfToken).expect(204);
      expect(([] as string[]).concat(res.headers['set-cookie'])[0]).toMatch(
        /^admin_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/,
      );
      expect((await stack.db.query('SELECT count(*)::int AS n FROM admin_sessions'))[0].n).toBe(before - 1);
      await api.get('/api/admin/session').set('cookie', temporary.cookie).expect(401);
      await api.get('/api/admin/session').set('cookie', session.cookie).expect(200);
    });
  });

  describe('the audit log', () => {
    it('records sign-ins, failed sign-ins, sign-outs, creates, edits and deletes, with the client address and no password', async () => {
      const rows = await auditActions();
      const admin = await adminId(ADMIN.email);
      const actions = new Set(rows.map((row) => row.action));
      for (const action of [
        'account.create',
        'account.password',
        'sign-in',
        'sign-in.failed',
        'sign-out',
        'testimonial.create',
        'testimonial.update',
        'testimonial.delete',
      ]) {
        expect(actions).toContain(action);
      }
      expect(rows).toContainEqual({ admin_id: admin, action: 'sign-in', target: null, client_ip: '127.0.0.1' });
      // A wrong password names the account it was tried on; an unknown address names nobody.
      expect(rows).toContainEqual({ admin_id: admin, action: 'sign-in.failed', target: null, client_ip: '127.0.0.1' });
      expect(rows).toContainEqual({ admin_id: null, action: 'sign-in.failed', target: null, client_ip: '127.0.0.1' });
      expect(
        rows
          .filter((row) => row.action.startsWith('testimonial.'))
          .every((row) => row.admin_id === admin && /^testimonial:[0-9a-f-]{36}$/.test(row.target ?? '')),
      ).toBe(true);
      const [{ deleted }] = await stack.db.query(
        `SELECT count(*)::int AS deleted FROM admin_audit_log WHERE action = 'testimonial.delete'`,
      );
      expect(deleted).toBe(1);
      const everything = JSON.stringify(await stack.db.query('SELECT * FROM admin_audit_log'));
      for (const secret of [ADMIN.password, OTHER.password, 'not the password at all']) expect(everything).not.toContain(secret);
    });

    it('a refused change records nothing', async () => {
      const before = (await auditActions()).length;
      await api.post('/api/testimonials').set('cookie', session.cookie).send({ name: 'N', title: 'T', content: 'C' }).expect(403);
      await api
        .post('/api/testimonials')
        .set('cookie', session.cookie)
        .set('x-csrf-token', session.csrfToken)
        .send({ name: 'N', title: 'T', content: 'C', videoUrl: 'javascript:x' })
        .expect(400);
      expect((await auditActions()).length).toBe(before);
    });
  });

  describe('sign-in rate limits', () => {
    // Each test counts from a fresh window, so the limits are pinned to their configured counts.
    beforeEach(() => resetRateLimits());

    it('allows exactly the configured attempts for one e-mail address, then a readable 429, even with the right password', async () => {
      const changed = { ...OTHER, password: 'a replaced admin password' };
      for (let i = 1; i <= PER_EMAIL_LIMIT; i++) {
        expect({ attempt: i, status: (await login(OTHER.email, 'wrong password attempt')).status }).toEqual({ attempt: i, status: 401 });
      }
      const res = await login(OTHER.email, 'wrong password attempt');
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(/^Too many sign-in attempts\. Please wait 10 minutes and try again\.$/);
      await login(changed.email, changed.password).expect(429);
      // Another address from the same client is not affected.
      await login(ADMIN.email, ADMIN.password).expect(200);
    });

    it('counts only failed attempts per e-mail address, and a successful sign-in starts the count afresh', async () => {
      // Successes never count: more of them than the limit all succeed.
      for (let i = 1; i <= PER_EMAIL_LIMIT + 2; i++) {
        expect({ attempt: i, status: (await login(ADMIN.email, ADMIN.password)).status }).toEqual({ attempt: i, status: 200 });
      }
      // Guesses made elsewhere, one short of the limit, then the real admin signs in...
      for (let i = 1; i < PER_EMAIL_LIMIT; i++) await login(ADMIN.email, 'a guess from elsewhere').expect(401);
      await login(ADMIN.email, ADMIN.password).expect(200);
      // ...and the address has its whole allowance again.
      for (let i = 1; i <= PER_EMAIL_LIMIT; i++) {
        expect({ attempt: i, status: (await login(ADMIN.email, 'another guess')).status }).toEqual({ attempt: i, status: 401 });
      }
      await login(ADMIN.email, ADMIN.password).expect(429);
    });

    it('allows exactly the configured attempts from one client across addresses, then 429', async () => {
      for (let i = 1; i <= PER_CLIENT_LIMIT; i++) {
        const status = (await login(`spread.${i}@example.com`, 'wrong password attempt')).status;
        expect({ attempt: i, status }).toEqual({ attempt: i, status: 401 });
      }
      expect((await login(`spread.${PER_CLIENT_LIMIT + 1}@example.com`, 'wrong password attempt')).status).toBe(429);
      // The right password does not get around it either.
      await login(ADMIN.email, ADMIN.password).expect(429);
    });
  });
});
