import { ConfigError } from './app-config';
import { loadEnvFile } from './env-file';

/**
 * Reads `.env` (env-file.ts) as an import with an effect: each entry point (the API's and the
 * worker's main.ts) imports this first, because some modules read their setting as they load
 * (`@contracts/site/site` reads the site folder SITE_DIR names), and an import runs before any
 * statement of the file that imports it.
 */
try {
  loadEnvFile();
} catch (err) {
  // The entry point's own handler is not running yet: end the boot as it would, naming the problem.
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
