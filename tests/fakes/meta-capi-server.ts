import type { DoorAttempt } from './exactly-once';
import { RecordedRequest, RecordingJsonServer, type Answer } from './recording-json-server';

/** One event of an accepted Conversions API request, with the pixel id from its path. */
export interface RecordedMetaEvent {
  pixelId: string;
  testEventCode: string | undefined;
  event: Record<string, unknown> & { event_id?: string; event_name?: string };
}

const EVENTS_PATH = /^\/v\d+\.\d+\/(\d+)\/events$/;

/**
 * Stands in for Meta's Graph API (Conversions API) on 127.0.0.1: `POST /v21.0/{pixel}/events`.
 * Records every request with `access_token` reduced to its presence. Given the expected token it
 * refuses others as Meta does (400, OAuthException code 190). Like Meta it counts each
 * (event_name, event_id) once: `uniqueEvents()` is what Meta would report.
 */
export class FakeMetaCapiServer extends RecordingJsonServer {
  protected readonly secretParams = ['access_token'] as const;

  constructor(private readonly options: { accessToken?: string } = {}) {
    super();
  }

  /** Every event of every accepted request, repeats included. */
  events(): RecordedMetaEvent[] {
    return this.accepted().flatMap((request) => {
      const body = request.body as { data?: RecordedMetaEvent['event'][]; test_event_code?: string };
      const pixelId = request.path.match(EVENTS_PATH)?.[1] ?? '';
      return (body.data ?? []).map((event) => ({ pixelId, testEventCode: body.test_event_code, event }));
    });
  }

  /** Every event of every request, whatever its answer, as an attempt on (event_name, event_id). */
  eventsAtDoor(): DoorAttempt[] {
    return this.requests.flatMap((request) => {
      const data = (request.body as { data?: unknown } | null)?.data;
      const events = Array.isArray(data) ? (data as RecordedMetaEvent['event'][]) : [];
      return events.map((event) => ({ identity: `${event.event_name}:${event.event_id}`, toldDone: request.answer === 'ok' }));
    });
  }

  /** Events after Meta's de-duplication on (event_name, event_id). */
  uniqueEvents(): RecordedMetaEvent[] {
    const seen = new Set<string>();
    return this.events().filter(({ event }) => {
      const key = `${event.event_name}:${event.event_id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  protected answer(request: RecordedRequest, secrets: Record<string, string>): Answer {
    if (request.method !== 'POST' || !EVENTS_PATH.test(request.path)) {
      return { status: 400, answer: 'refused', body: graphError('Unsupported post request.', 100, false) };
    }
    if (!secrets.access_token || (this.options.accessToken !== undefined && secrets.access_token !== this.options.accessToken)) {
      return { status: 400, answer: 'refused', body: graphError('Invalid OAuth access token - Cannot parse access token', 190, false) };
    }
    const data = (request.body as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length === 0) {
      return { status: 400, answer: 'refused', body: graphError('Invalid parameter', 100, false) };
    }
    return { status: 200, answer: 'ok', body: { events_received: data.length, messages: [], fbtrace_id: `fake${this.requests.length}` } };
  }

  protected defaultFailureBody(status: number): unknown {
    return graphError('An unexpected error has occurred. Please retry your request later.', status >= 500 ? 2 : 1, true);
  }
}

function graphError(message: string, code: number, transient: boolean) {
  return { error: { message, type: 'OAuthException', code, is_transient: transient, fbtrace_id: 'fakeTrace' } };
}

if (require.main === module) {
  const fake = new FakeMetaCapiServer();
  void fake.start(Number(process.env.PORT ?? 4020)).then((url) => console.log(`Fake Meta Conversions API on ${url}`));
}
