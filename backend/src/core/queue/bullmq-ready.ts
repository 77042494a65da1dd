import { settledWithin } from '../runtime/with-timeout';

/**
 * Longest a closing process waits for a BullMQ object's Redis connections to finish connecting.
 * BullMQ closing a connection that is still connecting emits its failure after it has removed
 * every listener, which Node throws as an unhandled 'error': a worker or API stopped right after
 * it started would crash on the way out. Redis that is up answers in milliseconds; one that is
 * away is not waited for longer than this.
 */
export const READY_BEFORE_CLOSE_MS = 2000;

/** Resolves once `ready` has (the object's connections are up), or after READY_BEFORE_CLOSE_MS. */
export function readyBeforeClose(ready: () => Promise<unknown>): Promise<void> {
  return settledWithin(ready(), READY_BEFORE_CLOSE_MS);
}
