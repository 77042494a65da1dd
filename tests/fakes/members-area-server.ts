import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { httpCallerGone, type DoorHold } from './door-hold';
import type { DoorAttempt } from './exactly-once';

/** A membership notice as the worker sends it (worker/src/clients/membership-webhook.client.ts). */
export interface MembersAreaNotice {
  type: string;
  timestamp: string;
  data: { membership_id: string; sequence: number; status: string } & Record<string, unknown>;
}

/** One POST the members area received: whether it verified, and what became of it. */
export interface MembersAreaDelivery {
  body: MembersAreaNotice;
  /** The `webhook-id` header: the same on every attempt of one access change. */
  webhookId: string;
  signatureValid: boolean;
  answered: number;
  /** The sender was gone before the answer reached it (see `answerHold`): it never learned the outcome. */
  lost: boolean;
  /** 'applied': newer than the last applied for its membership; 'stale': not, so it changed nothing; 'refused': not 2xx. */
  effect: 'applied' | 'stale' | 'refused';
}

/** What the members area holds for one membership: the last notice it applied. */
export interface MembersAreaState {
  sequence: number;
  status: string;
  /** Whether the buyer may enter, as the notice's type says (a paused membership's status is 'paused', its type access_ended). */
  access: boolean;
}

/**
 * A members area on 127.0.0.1 that receives the membership webhook as a receiver should: it
 * verifies the Standard Webhooks signature with the `standardwebhooks` library and the shared
 * secret (400 if it fails, or if the notice has no numeric sequence), and applies a notice only if its `data.sequence` is greater than the
 * last one it applied for that membership, so a notice that arrives late changes nothing. It
 * records each delivery and each membership's resulting state, and can answer the next N, or
 * every delivery a predicate picks, with a 503 (the system must retry, and tell it once). A shared
 * `answerHold` can keep the answer to an accepted delivery until it is released.
 */
export class FakeMembersArea {
  readonly deliveries: MembersAreaDelivery[] = [];
  private readonly states = new Map<string, MembersAreaState>();
  private failing = 0;
  private holding: ((body: MembersAreaNotice, webhookId: string) => boolean) | null = null;
  private server: Server | null = null;
  private readonly webhook: Webhook;
  /** Shared with the other fakes of a test: holds the answer to the call it picks. */
  answerHold: DoorHold | null = null;

  constructor(secret: string) {
    this.webhook = new Webhook(secret);
  }

  /** Listens on `host` (0.0.0.0 for containers to reach it); the URL names the loopback address either way. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const delivery = this.receive(Buffer.concat(chunks).toString(), req.headers);
        const answer = () => {
          if (res.destroyed || req.socket.destroyed) delivery.lost = true;
          else res.writeHead(delivery.answered).end();
        };
        const held = delivery.effect === 'refused' ? null : this.answerHold?.atDoor('members area', () => httpCallerGone(req));
        if (held) void held.then(answer);
        else answer();
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
    this.states.clear();
    this.failing = 0;
    this.holding = null;
  }

  failNext(count: number): void {
    this.failing = count;
  }

  /** Answers 503 to every delivery `match` picks, until `release()`: a members area down for those. */
  hold(match: (body: MembersAreaNotice, webhookId: string) => boolean): void {
    this.holding = match;
  }

  release(): void {
    this.holding = null;
  }

  /** What the members area holds for a membership now (undefined: never told). */
  state(membershipId: string): MembersAreaState | undefined {
    return this.states.get(membershipId);
  }

  /** Every delivery as an attempt on its `webhook-id` (a resend of one access change carries the same one). */
  deliveriesAtDoor(): DoorAttempt[] {
    return this.deliveries.map((d) => ({ identity: d.webhookId, toldDone: d.answered < 300 && !d.lost }));
  }

  /** Accepted deliveries (answered 2xx), in arrival order. */
  accepted(): MembersAreaDelivery[] {
    return this.deliveries.filter((d) => d.answered < 300);
  }

  private receive(raw: string, headers: IncomingHttpHeaders): MembersAreaDelivery {
    const body = JSON.parse(raw) as MembersAreaNotice;
    const webhookId = String(headers['webhook-id'] ?? '');
    const signatureValid = this.verify(raw, headers);
    const wellFormed = signatureValid && typeof body.data?.sequence === 'number';
    const refused = !wellFormed || this.failing > 0 || (this.holding?.(body, webhookId) ?? false);
    const answered = !wellFormed ? 400 : refused ? 503 : 204;
    if (wellFormed && this.failing > 0) this.failing--;
    let effect: MembersAreaDelivery['effect'] = 'refused';
    if (!refused) {
      const last = this.states.get(body.data.membership_id);
      effect = last === undefined || body.data.sequence > last.sequence ? 'applied' : 'stale';
      if (effect === 'applied') {
        const { sequence, status } = body.data;
        this.states.set(body.data.membership_id, { sequence, status, access: body.type === 'membership.access_granted' });
      }
    }
    const delivery: MembersAreaDelivery = { body, webhookId, signatureValid, answered, lost: false, effect };
    this.deliveries.push(delivery);
    return delivery;
  }

  private verify(raw: string, headers: IncomingHttpHeaders): boolean {
    try {
      this.webhook.verify(raw, {
        'webhook-id': String(headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(headers['webhook-signature'] ?? ''),
      });
      return true;
    } catch {
      return false;
    }
  }
}
