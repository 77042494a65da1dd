import type { DoorAttempt } from './exactly-once';
import { RecordedRequest, RecordingJsonServer, type Answer } from './recording-json-server';

export interface RecordedGa4Event {
  measurementId: string | undefined;
  clientId: string | undefined;
  userId: string | undefined;
  event: { name?: string; params?: Record<string, unknown> };
}

/**
 * Stands in for GA4's Measurement Protocol on 127.0.0.1: `POST /mp/collect?measurement_id=&api_secret=`.
 * Records every request with `api_secret` reduced to its presence. Like GA4 it answers 204 to
 * anything well-formed on the collect path and needs both query parameters.
 */
export class FakeGa4MpServer extends RecordingJsonServer {
  protected readonly secretParams = ['api_secret'] as const;

  /** Every event of every accepted request, repeats included. */
  events(): RecordedGa4Event[] {
    return this.accepted().flatMap((request) => {
      const body = request.body as { client_id?: string; user_id?: string; events?: RecordedGa4Event['event'][] };
      return (body.events ?? []).map((event) => ({
        measurementId: request.query.measurement_id,
        clientId: body.client_id,
        userId: body.user_id,
        event,
      }));
    });
  }

  /**
   * Every event of every request, whatever its answer, as an attempt on (name, transaction_id):
   * GA4 counts a purchase once per transaction id.
   */
  eventsAtDoor(): DoorAttempt[] {
    return this.requests.flatMap((request) => {
      const events = (request.body as { events?: RecordedGa4Event['event'][] } | null)?.events;
      return (Array.isArray(events) ? events : []).map((event) => ({
        identity: `${event.name}:${JSON.stringify(event.params?.transaction_id ?? null)}`,
        toldDone: request.answer === 'ok',
      }));
    });
  }

  /**
   * Every purchase as an attempt on its transaction id (GA4 counts one purchase per id), and every
   * refund on its transaction id, amount and time: refunds add up (several partial refunds of one
   * purchase are several effects), and a resend of one repeats all three.
   */
  effectsAtDoor(): DoorAttempt[] {
    return this.requests.flatMap((request) => {
      const body = request.body as { events?: RecordedGa4Event['event'][]; timestamp_micros?: number } | null;
      return (Array.isArray(body?.events) ? body.events : []).map((event) => {
        const transaction = JSON.stringify(event.params?.transaction_id ?? null);
        const refund =
          event.name === 'refund' ? `:${JSON.stringify(event.params?.value ?? null)}@${String(body?.timestamp_micros ?? '')}` : '';
        return { identity: `${event.name}:${transaction}${refund}`, toldDone: request.answer === 'ok' };
      });
    });
  }

  protected answer(request: RecordedRequest, secrets: Record<string, string>): Answer {
    if (request.method !== 'POST' || request.path !== '/mp/collect') return { status: 404, answer: 'refused' };
    if (!request.query.measurement_id || !secrets.api_secret || typeof request.body !== 'object') {
      return { status: 400, answer: 'refused' };
    }
    return { status: 204, answer: 'ok' };
  }

  protected defaultFailureBody(): unknown {
    return undefined;
  }
}

if (require.main === module) {
  const fake = new FakeGa4MpServer();
  void fake.start(Number(process.env.PORT ?? 4030)).then((url) => console.log(`Fake GA4 Measurement Protocol on ${url}`));
}
