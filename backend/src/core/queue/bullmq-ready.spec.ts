import { EventEmitter } from 'node:events';
import { READY_BEFORE_CLOSE_MS, workerConnected } from './bullmq-ready';

/** An ioredis client as the check sees it: a status, and 'ready' when it connects again. */
class FakeClient extends EventEmitter {
  constructor(public status: string) {
    super();
  }

  connect(): void {
    this.status = 'ready';
    this.emit('ready');
  }
}

/** A BullMQ worker's two connections, each handing out its client (or never, if it never connected). */
const workerWith = (main: Promise<unknown>, blocking: Promise<unknown>) => ({ backend: { client: main, blockingClient: blocking } });

describe('workerConnected', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is true at once when both connections are ready', async () => {
    const worker = workerWith(Promise.resolve(new FakeClient('ready')), Promise.resolve(new FakeClient('ready')));
    await expect(workerConnected(worker)).resolves.toBe(true);
  });

  it('waits for a reconnecting blocking connection that comes back in time', async () => {
    const blocking = new FakeClient('reconnecting');
    const answer = workerConnected(workerWith(Promise.resolve(new FakeClient('ready')), Promise.resolve(blocking)));
    await jest.advanceTimersByTimeAsync(READY_BEFORE_CLOSE_MS / 2);
    blocking.connect();
    await expect(answer).resolves.toBe(true);
    expect(blocking.listenerCount('ready')).toBe(0);
  });

  it('is false when a connection is still reconnecting after the wait, and stops listening', async () => {
    const blocking = new FakeClient('reconnecting');
    const answer = workerConnected(workerWith(Promise.resolve(new FakeClient('ready')), Promise.resolve(blocking)));
    await jest.advanceTimersByTimeAsync(READY_BEFORE_CLOSE_MS + 1);
    await expect(answer).resolves.toBe(false);
    expect(blocking.listenerCount('ready')).toBe(0);
  });

  it('is false when a connection never connected since the worker started (its client never comes)', async () => {
    const answer = workerConnected(workerWith(Promise.resolve(new FakeClient('ready')), new Promise(() => undefined)));
    await jest.advanceTimersByTimeAsync(READY_BEFORE_CLOSE_MS + 1);
    await expect(answer).resolves.toBe(false);
  });

  it('is false when handing out a client failed', async () => {
    const failed = Promise.reject(new Error('connect ECONNREFUSED'));
    await expect(workerConnected(workerWith(failed, Promise.resolve(new FakeClient('ready'))))).resolves.toBe(false);
  });
});
