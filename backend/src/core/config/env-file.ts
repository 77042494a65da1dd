import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './app-config';

/**
 * Reads `.env` from the working folder (or the file ENV_FILE names; ENV_FILE=none reads none)
 * into `env` with Node's own parser. Variables already in the environment win, and an empty value
 * in the file counts as unset, as `.env.example`'s blanks mean. Returns the file read, if any.
 * `npm test` and `npm run bench` set ENV_FILE=none: they run on their own settings.
 * scripts/bootstrap.mjs repeats these rules for `npm start` (it runs before any build).
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | null {
  const named = env.ENV_FILE;
  if (named === 'none') return null;
  const path = resolve(cwd, named || '.env');
  if (!existsSync(path)) {
    if (named) throw new ConfigError(`ENV_FILE names ${path}, which does not exist (ENV_FILE=none reads no file)`);
    return null;
  }
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (env[name] === undefined && value !== '') env[name] = value;
  }
  return path;
}
