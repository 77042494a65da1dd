import { settledWithin, valueWithin } from '../runtime/with-timeout';

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

/** What a worker's Redis connections look like from outside: ioredis clients and their status. */
interface StatusClient {
  status: string;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/** Whether `client` is connected, or connects within `ms`. */
function connectedWithin(client: StatusClient, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, ms);
    client.once('ready', onReady);
  });
}

/**
 * Whether both of a BullMQ worker's connections (commands, and the blocking one that waits for
 * jobs) are connected, or connect within READY_BEFORE_CLOSE_MS. A graceful close waits for the
 * blocking connection to report its end, which one still reconnecting (Redis restarted a moment
 * ago, or away) never does: such a worker would hang until it is killed. BullMQ 6 hands both clients out
 * on the worker's Redis backend.
 */
export async function workerConnected(worker: {
  backend: { client: Promise<unknown>; blockingClient: Promise<unknown> | undefined };
}): Promise<boolean> {
  // A connection that never connected since the worker started hands out no client at all.
  const clients = await valueWithin(Promise.all([worker.backend.client, worker.backend.blockingClient]), READY_BEFORE_CLOSE_MS);
  if (!clients) return false;
  const connected = await Promise.all(clients.filter(isStatusClient).map((client) => connectedWithin(client, READY_BEFORE_CLOSE_MS)));
  return connected.every(Boolean);
}

const isStatusClient = (value: unknown): value is StatusClient =>
  typeof value === 'object' && value !== null && typeof (value as StatusClient).status === 'string';
