import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  path: string;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  params: Record<string, string>;
  at: number;
}

/**
 * Stands in for the affiliate service (FirstPromoter-compatible tracking API) on 127.0.0.1.
 * It records every request it received and can be told to fail the next N requests.
 */
export class FakeAffiliateServer {
  readonly calls: RecordedCall[] = [];
  private failNext = 0;
  private server: Server | null = null;

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/api/v1`;
  }

  failNextRequests(count: number): void {
    this.failNext = count;
  }

  signups(): RecordedCall[] {
    return this.calls.filter((c) => c.path === '/api/v1/track/signup');
  }

  reset(): void {
    this.calls.length = 0;
    this.failNext = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/__calls') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.calls));
      return;
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily unavailable"}');
      return;
    }
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
    this.calls.push({
      path: url.pathname,
      apiKey: req.headers['x-api-key'] as string | undefined,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      params,
      at: Date.now(),
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: this.calls.length, type: 'signup' }));
  }
}

if (require.main === module) {
  const fake = new FakeAffiliateServer();
  void fake.start(Number(process.env.PORT ?? 4010)).then((url) => console.log(`Fake affiliate service on ${url}`));
}
