import { Stack, startStack } from './support/stack';

/**
 * A worker stopped right after it started (a deploy rolling on, a crash loop's restart) while its
 * BullMQ connections are still connecting closes cleanly: BullMQ reports such a connection's
 * failure after it has removed every listener, which Node throws unless the worker lets the
 * connections finish first (core/queue/bullmq-ready.ts).
 */
let stack: Stack;
const unhandled: unknown[] = [];
const note = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  process.on('unhandledRejection', note);
});
afterAll(async () => {
  process.off('unhandledRejection', note);
  await stack?.stop();
});

it('closes a worker that has only just started, again and again, with nothing thrown', async () => {
  for (let i = 0; i < 5; i++) {
    await stack.startWorker();
    await stack.stopWorker();
  }
  // A connection's failure would surface a moment after its close.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(unhandled.map((reason) => String(reason))).toEqual([]);
});
