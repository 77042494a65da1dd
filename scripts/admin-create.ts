import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hashPassword } from '../backend/src/modules/admin/password-hasher';
import { ADMIN_PASSWORD_MIN_LENGTH } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { AdminAccountRepository } from '@core/database/repositories/admin-account.repository';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { CliError, runCli } from './lib/cli';
import { withDataSource } from './lib/data-source';

const root = resolve(__dirname, '..', '..');
const USAGE = 'usage: npm run admin:create -- --email you@example.com   (the password is prompted for, or read from stdin when piped)';
/** The login endpoint refuses longer passwords; a longer one here would never sign in. */
const PASSWORD_MAX_LENGTH = 1024;

function emailArgument(args: string[]): string {
  const at = args.findIndex((arg) => arg === '--email' || arg.startsWith('--email='));
  const value = at < 0 ? undefined : args[at].startsWith('--email=') ? args[at].slice('--email='.length) : args[at + 1];
  if (!value) throw new CliError(USAGE);
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(value.trim())) throw new CliError('That is not an e-mail address.');
  return value.trim();
}

/**
 * DATABASE_URL, or else the embedded Postgres of the `npm start` running from this folder
 * (its ports are in .data/npm-start.json; the embedded database's credentials are fixed).
 */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const record = join(resolve(process.env.DATA_DIR ?? join(root, '.data')), 'npm-start.json');
  if (existsSync(record)) {
    const { pid, ports } = JSON.parse(readFileSync(record, 'utf8')) as { pid: number; ports: Record<string, number> };
    let running = true;
    try {
      process.kill(pid, 0);
    } catch {
      running = false;
    }
    if (running && ports.EMBEDDED_PG_PORT) return `postgres://postgres:postgres@127.0.0.1:${ports.EMBEDDED_PG_PORT}/clear`;
  }
  throw new CliError(
    'DATABASE_URL is not set and no `npm start` with its embedded database is running here. Start `npm start`, or set DATABASE_URL.',
  );
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolvePrompt, reject) => {
    const stdin = process.stdin;
    let typed = '';
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stdout.write('\n');
      if (error) reject(error);
      else resolvePrompt(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new CliError('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await promptHidden('Password (at least 12 characters): ');
    const again = await promptHidden('Same password again: ');
    if (password !== again) throw new CliError('The two passwords differ; nothing was changed.');
    return password;
  }
  let piped = '';
  for await (const chunk of process.stdin) piped += String(chunk);
  // `echo 'pw' | …` adds a line break that is not part of the password.
  return piped.split(/\r?\n/, 1)[0];
}

function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < ADMIN_PASSWORD_MIN_LENGTH)
    throw new CliError(`The password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters; nothing was changed.`);
  if (length > PASSWORD_MAX_LENGTH)
    throw new CliError(`The password must be at most ${PASSWORD_MAX_LENGTH} characters; nothing was changed.`);
}

/** Creates the account, or sets a new password (signing the account out everywhere) when it exists. */
export async function upsertAdmin(url: string, email: string, password: string): Promise<'created' | 'updated'> {
  const passwordHash = await hashPassword(password);
  return withDataSource(url, async (dataSource) => {
    const accounts = new AdminAccountRepository(dataSource);
    const audit = new AuditRepository(dataSource);
    try {
      return await dataSource.transaction(async (manager) => {
        const { id, created } = await accounts.upsert(manager, {
          email,
          email_normalized: normalizeEmail(email),
          password_hash: passwordHash,
        });
        if (!created) await accounts.deleteSessionsOf(manager, id);
        await audit.record({ adminId: id, action: created ? 'account.create' : 'account.password' }, manager);
        return created ? 'created' : 'updated';
      });
    } catch (err) {
      if ((err as { code?: string }).code === '42P01')
        throw new CliError('The database has no admin tables yet: run `npm run migrate` (or `npm start`) first.');
      throw err;
    }
  });
}

/** For `npm start`'s hint: whether anyone can sign in to /admin yet. */
export function hasAdminAccount(url: string): Promise<boolean> {
  return withDataSource(url, (dataSource) => new AdminAccountRepository(dataSource).anyExists());
}

async function main(): Promise<void> {
  const email = emailArgument(process.argv.slice(2));
  const url = databaseUrl();
  const password = await readPassword();
  checkPassword(password);
  const outcome = await upsertAdmin(url, email, password);
  console.log(
    outcome === 'created' ? 'Admin account created. Sign in at /admin/login.' : 'Password updated; the account was signed out everywhere.',
  );
}

if (require.main === module) runCli(main, 'Could not save the admin account');
