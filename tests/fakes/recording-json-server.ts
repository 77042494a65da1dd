import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpCallerGone, type DoorHold } from './door-hold';

/** One request to a fake's API path, whatever it was answered. Secret query values are never kept. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without its secret parameters. */
  query: Record<string, string>;
  /** Names of the secret parameters the request carried (their values are not recorded). */
  secretsPresent: string[];
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  status: number;
  /** 'lost': acted on, but the caller was gone before the answer could reach it (see `answerHold`). */
  answer: 'ok' | 'failed' | 'refused' | 'lost';
  at: number;
}

export interface Answer {
  status: number;
  answer: Exclude<RecordedRequest['answer'], 'lost'>;
  body?: unknown;
}

/**
 * The common part of the analytics fakes: listens on 127.0.0.1, records every request with its
 * secret query parameters reduced to their names, can fail the next N requests, can hold the
 * answer to the call a shared `answerHold` picks until it is released, and serves
 * `GET /__requests`, `POST /__fail?count=&status=` and `POST /__reset` for other processes.
 */
export abstract class RecordingJsonServer {
  readonly requests: RecordedRequest[] = [];
  private failNext = 0;
  private failStatus = 503;
  private failBody: unknown = undefined;
  private server: Server | null = null;
  /** Shared with the other fakes of a test: holds the answer to the call it picks. */
  answerHold: DoorHold | null = null;

  protected abstract readonly secretParams: readonly string[];

  /** Answers a request that was not told to fail. */
  protected abstract answer(request: RecordedRequest, secrets: Record<string, string>): Answer;

  /** The body sent with a failure when the test did not give one. */
  protected abstract defaultFailureBody(status: number): unknown;

  /** Listens on `host` (0.0.0.0 for containers to reach it); `url` names the loopback address either way. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    return this.url;
  }

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The next `count` requests get `status` (and `body`, or a typical error body) and are not acted on. */
  failNextRequests(count: number, status = 503, body?: unknown): void {
    this.failNext = count;
    this.failStatus = status;
    this.failBody = body;
  }

  /** Requests that were acted on (their answer delivered or not). */
  accepted(): RecordedRequest[] {
    return this.requests.filter((r) => r.answer === 'ok' || r.answer === 'lost');
  }

  reset(): void {
    this.requests.length = 0;
    this.failNext = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/__')) return this.control(method, url, res);

    const query: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const [name, value] of url.searchParams) (this.secretParams.includes(name) ? secrets : query)[name] = value;
    const text = Buffer.concat(chunks).toString();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: a test can then see what was sent instead of JSON.
    }
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      query,
      secretsPresent: Object.keys(secrets),
      body,
      status: 0,
      answer: 'ok',
      at: Date.now(),
    };

    let reply: Answer;
    if (this.failNext > 0) {
      this.failNext -= 1;
      reply = { status: this.failStatus, answer: 'failed', body: this.failBody ?? this.defaultFailureBody(this.failStatus) };
    } else {
      reply = this.answer(request, secrets);
    }
    const held =
      reply.answer === 'ok'
        ? this.answerHold?.atDoor(this.constructor.name.replace(/^Fake|Server$/g, ''), () => httpCallerGone(req))
        : null;
    if (held) await held;
    const gone = res.destroyed || req.socket.destroyed;
    this.requests.push({ ...request, status: reply.status, answer: gone && reply.answer === 'ok' ? 'lost' : reply.answer });
    if (gone) return;
    if (reply.body === undefined) {
      res.writeHead(reply.status).end();
    } else {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    }
  }

  private control(method: string, url: URL, res: ServerResponse): void {
    const json = (body: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (method === 'GET' && url.pathname === '/__requests') return json(this.requests);
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
