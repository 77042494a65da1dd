import request from 'supertest';
import { runBuiltScript, type ScriptRun } from './built-script';

/**
 * Creates an admin account with `npm run admin:create`'s compiled CLI, the password piped in, in
 * the database `env` names (DATABASE_URL; this process's by default).
 */
export function adminCreate(email: string, password: string, env: NodeJS.ProcessEnv = process.env): Promise<ScriptRun> {
  return runBuiltScript('admin-create', {
    args: ['--email', email],
    env: { ...env, DATA_DIR: '/nonexistent' },
    input: `${password}\n`,
  });
}

export interface AdminSession {
  cookie: string;
  csrfToken: string;
}

/** Creates the admin (if new) and signs in: the session cookie and the CSRF token its writes need. */
export async function adminSignIn(url: string, admin: { email: string; password: string }): Promise<AdminSession> {
  await adminCreate(admin.email, admin.password);
  const login = await request(url).post('/api/admin/login').send(admin).expect(200);
  return { cookie: ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0], csrfToken: login.body.csrfToken };
}
