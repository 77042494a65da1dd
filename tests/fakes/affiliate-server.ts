import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpCallerGone, type DoorHold } from './door-hold';
import type { DoorAttempt } from './exactly-once';

/** A request the fake acted on: one effective signup or sale (the shape `GET /__calls` has always had). */
export interface RecordedCall {
  path: string;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  params: Record<string, string>;
  at: number;
}

/**
 * Every request that reached the API paths, whatever the answer:
 * 'ok' (acted on), 'duplicate' (key or signup already seen, nothing done), 'failed' (told to fail,
 * nothing done) or 'lost' (acted on, then answered 503 as if the response never arrived).
 */
export interface RecordedAttempt extends RecordedCall {
  status: number;
  answer: 'ok' | 'duplicate' | 'failed' | 'lost';
}

/**
 * Stands in for the affiliate service (FirstPromoter-compatible tracking API) on 127.0.0.1.
 * Like the real service it does each signup and each sale once: a repeated Idempotency-Key, a
 * signup whose uid or e-mail was already tracked, or a sale whose event_id was, gets 409
 * "already tracked" and changes nothing. One buyer may have many sales (one per payment).
 *
 * `calls` / `signups()` / `sales()` / `GET /__calls` are the effective calls; `attempts` /
 * `signupAttempts()` / `saleAttempts()` / `GET /__attempts` are every request with its key. `failNextRequests(n)` answers the next n
 * requests with an error without acting; `loseNextResponses(n)` acts, then answers 503;
 * `answerLate(ms, n)` acts on the next n at once but answers only after `ms`, as a slow service
 * does (a client that gave up by then is recorded as 'lost'). With an `answerHold`, the answer to the
 * call it picks waits until released (a caller killed meanwhile is recorded as 'lost').
 */
export class FakeAffiliateServer {
  readonly calls: RecordedCall[] = [];
  readonly attempts: RecordedAttempt[] = [];
  /** What makes a later call a duplicate (key, event id, uid, e-mail per path): O(1) per request under load. */
  private readonly doneKeys = new Set<string>();
  private failNext = 0;
  private failStatus = 503;
  private loseNext = 0;
  private lateNext = 0;
  private lateMs = 0;
  private server: Server | null = null;
  /** Shared with the other fakes of a test: holds the answer to the call it picks. */
  answerHold: DoorHold | null = null;

  /** `host` 0.0.0.0 lets containers reach it (npm run test:deploy); the loopback by default. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    return this.url;
  }

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/api/v1`;
  }

  failNextRequests(count: number, status = 503): void {
    this.failNext = count;
    this.failStatus = status;
  }

  loseNextResponses(count: number): void {
    this.loseNext = count;
  }

  /** The next `count` requests acted on (every one by default) are answered only after `ms`. */
  answerLate(ms: number, count = Number.POSITIVE_INFINITY): void {
    this.lateMs = ms;
    this.lateNext = count;
  }

  /** Effective signups: each one tracked a lead. */
  signups(): RecordedCall[] {
    return this.calls.filter((c) => c.path === '/api/v1/track/signup');
  }

  /** Every signup request, including the ones answered with an error or "duplicate". */
  signupAttempts(): RecordedAttempt[] {
    return this.attempts.filter((c) => c.path === '/api/v1/track/signup');
  }

  /** Effective sales: each one tracked a payment. */
  sales(): RecordedCall[] {
    return this.calls.filter((c) => c.path === '/api/v1/track/sale');
  }

  /** Every sale request, including the ones answered with an error or "duplicate". */
  saleAttempts(): RecordedAttempt[] {
    return this.attempts.filter((c) => c.path === '/api/v1/track/sale');
  }

  /** Effective refunds: each one reversed a sale's commission. */
  refunds(): RecordedCall[] {
    return this.calls.filter((c) => c.path === '/api/v1/track/refund');
  }

  /** Every refund request as an attempt on its refund (`event_id`), for `exactlyOnceProblems`. */
  refundsAtDoor(): DoorAttempt[] {
    return this.attempts
      .filter((c) => c.path === '/api/v1/track/refund')
      .map((a) => ({ identity: a.params.event_id ?? '(none)', toldDone: toldDone(a) }));
  }

  /**
   * Every signup request as an attempt on its lead, for `exactlyOnceProblems`: by the lead's
   * e-mail (one signup per person, whatever uid or key a sender used), or by its uid.
   */
  signupsAtDoor(by: 'email' | 'uid' = 'email'): DoorAttempt[] {
    return this.signupAttempts().map((a) => ({ identity: a.params[by] ?? '(none)', toldDone: toldDone(a) }));
  }

  /** Every sale request as an attempt on its payment (`event_id`), for `exactlyOnceProblems`. */
  salesAtDoor(): DoorAttempt[] {
    return this.saleAttempts().map((a) => ({ identity: a.params.event_id ?? '(none)', toldDone: toldDone(a) }));
  }

  reset(): void {
    this.calls.length = 0;
    this.doneKeys.clear();
    this.attempts.length = 0;
    this.failNext = 0;
    this.loseNext = 0;
    this.lateNext = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith('/__')) return this.control(req.method ?? 'GET', url, res);

    const call: RecordedCall = {
      path: url.pathname,
      apiKey: req.headers['x-api-key'] as string | undefined,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      params: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
      at: Date.now(),
    };
    let delay = 0;
    const answer = (status: number, kind: RecordedAttempt['answer'], body: object) => {
      const send = () => {
        // The client gave up waiting: whatever was done, it never learns of it.
        const gone = res.destroyed || req.socket.destroyed;
        this.attempts.push({ ...call, status, answer: gone && kind === 'ok' ? 'lost' : kind });
        if (!gone) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const go = () => (delay > 0 ? setTimeout(send, delay) : send());
      const held = kind === 'ok' ? this.answerHold?.atDoor('affiliate', () => httpCallerGone(req)) : null;
      if (held) void held.then(go);
      else go();
    };

    if (this.failNext > 0) {
      this.failNext -= 1;
      return answer(this.failStatus, 'failed', { error: 'temporarily unavailable' });
    }
    // Sales and refunds are each tracked once per event_id.
    const isSale = url.pathname.endsWith('/track/sale') || url.pathname.endsWith('/track/refund');
    if (this.alreadyDone(call, isSale)) {
      return answer(409, 'duplicate', { error: 'duplicate', message: isSale ? 'Sale already tracked' : 'Signup already tracked' });
    }
    this.calls.push(call);
    for (const key of this.identities(call, isSale)) this.doneKeys.add(key);
    if (this.lateNext > 0) {
      this.lateNext -= 1;
      delay = this.lateMs;
    }
    if (this.loseNext > 0) {
      this.loseNext -= 1;
      return answer(503, 'lost', { error: 'temporarily unavailable' });
    }
    answer(200, 'ok', { id: this.calls.length, type: isSale ? 'sale' : 'signup' });
  }

  private alreadyDone(call: RecordedCall, isSale: boolean): boolean {
    return this.identities(call, isSale).some((key) => this.doneKeys.has(key));
  }

  /** A repeated idempotency key is a duplicate; so is the same event id (sales), or uid or e-mail (signups). */
  private identities(call: RecordedCall, isSale: boolean): string[] {
    const keys: string[] = [];
    if (call.idempotencyKey !== undefined) keys.push(`${call.path} key ${call.idempotencyKey}`);
    if (isSale) {
      if (call.params.event_id !== undefined) keys.push(`${call.path} event ${call.params.event_id}`);
    } else {
      if (call.params.uid !== undefined) keys.push(`${call.path} uid ${call.params.uid}`);
      if (call.params.email !== undefined) keys.push(`${call.path} email ${call.params.email.toLowerCase()}`);
    }
    return keys;
  }

  private control(method: string, url: URL, res: ServerResponse): void {
    const json = (body: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (method === 'GET' && url.pathname === '/__calls') return json(this.calls);
    if (method === 'GET' && url.pathname === '/__attempts') return json(this.attempts);
    if (method === 'POST' && url.pathname === '/__fail') {
      this.failNextRequests(Number(url.searchParams.get('count') ?? 1), Number(url.searchParams.get('status') ?? 503));
      return json({ ok: true });
    }
    if (method === 'POST' && url.pathname === '/__reset') {
      this.reset();
      return json({ ok: true });
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  }
}

if (require.main === module) {
  const fake = new FakeAffiliateServer();
  void fake.start(Number(process.env.PORT ?? 4010)).then((url) => console.log(`Fake affiliate service on ${url}`));
}

/** The sender learnt the effect is done: it was acted on, or answered "already tracked". */
function toldDone(attempt: RecordedAttempt): boolean {
  return attempt.answer === 'ok' || attempt.answer === 'duplicate';
}
