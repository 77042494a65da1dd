import { loadEnvFile } from '@core/config/env-file';

/** A refusal the person running a command can act on: its message is printed as it is. */
export class CliError extends Error {}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a one-shot command after reading .env, as `npm start` does. A CliError (or one of
 * `readable`, errors already written for a person) is printed as it is; anything else after
 * `failure`. Either way the command exits 1.
 */
export function runCli(main: () => Promise<void>, failure: string, readable: readonly ErrorClass[] = []): void {
  Promise.resolve()
    .then(() => {
      loadEnvFile();
      return main();
    })
    .catch((err: unknown) => {
      const known = err instanceof CliError || readable.some((kind) => err instanceof kind);
      const message = err instanceof Error ? err.message : String(err);
      console.error(known ? message : `${failure}: ${message}`);
      process.exit(1);
    });
}
