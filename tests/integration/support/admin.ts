import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'scripts', 'admin-create.js');

/** Creates an admin account with `npm run admin:create`'s compiled CLI; resolves with its exit code. */
export function adminCreate(email: string, password: string): Promise<number | null> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build:server" first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--email', email], { env: { ...process.env, DATA_DIR: '/nonexistent' }, stdio: 'pipe' });
    child.once('error', reject);
    child.once('exit', resolve);
    child.stdin.end(`${password}\n`);
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
