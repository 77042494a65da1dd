import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DoorAttempt } from './exactly-once';

/** One POST the members area received, with whether its signature checked out over the exact bytes. */
export interface MembersAreaDelivery {
  body: { id: string; type: string; data: Record<string, unknown> };
  signatureValid: boolean;
  idempotencyKey: string | undefined;
  answered: number;
}

/**
 * A members area on 127.0.0.1 that receives the membership webhook: it checks the
 * `X-Clear-Signature` (t=…,v1=HMAC-SHA256 of "t.body") with the shared secret, records each
 * delivery, and can answer the next N with a 503 (the system must retry, and tell it once).
 */
export class FakeMembersArea {
  readonly deliveries: MembersAreaDelivery[] = [];
  private failing = 0;
  private server: Server | null = null;

  constructor(private readonly secret: string) {}

  /** Listens on `host` (0.0.0.0 for containers to reach it); the URL names the loopback address either way. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const answered = this.failing > 0 ? 503 : 204;
        if (this.failing > 0) this.failing--;
        this.deliveries.push({
          body: JSON.parse(raw) as MembersAreaDelivery['body'],
          signatureValid: this.verify(raw, String(req.headers['x-clear-signature'] ?? '')),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          answered,
        });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/clear`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  reset(): void {
    this.deliveries.length = 0;
    this.failing = 0;
  }

  failNext(count: number): void {
    this.failing = count;
  }

  /** Every delivery as an attempt on its notice id (`<membership id>:<change>`: a resend carries the same one). */
  deliveriesAtDoor(): DoorAttempt[] {
    return this.deliveries.map((d) => ({ identity: d.body.id, toldDone: d.answered < 300 }));
  }

  /** Accepted deliveries (answered 2xx), in arrival order. */
  accepted(): MembersAreaDelivery[] {
    return this.deliveries.filter((d) => d.answered < 300);
  }

  private verify(raw: string, header: string): boolean {
    const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
    if (!parts.t || !parts.v1) return false;
    const expected = createHmac('sha256', this.secret).update(`${parts.t}.${raw}`).digest();
    const given = Buffer.from(parts.v1, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
