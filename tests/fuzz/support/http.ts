import { Agent, IncomingHttpHeaders, request } from 'node:http';

/** One request exactly as sent: any method, path bytes, headers and body (no client-side fixing up). */
export interface RawRequest {
  /** What the generator meant to break, shown when the request fails an assertion. */
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * node:http rather than fetch or supertest: they refuse or rewrite exactly the requests a fuzzer
 * wants to send (odd methods, bodies on GET, mismatched content types, invalid UTF-8).
 */
export async function send(base: string, req: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  try {
    return await sendOnce(base, req, timeoutMs);
  } catch (err) {
    // Node's documented pattern (as browsers do): a kept-alive socket the server closed just as it
    // was reused fails before any answer; that is the client's race, so the request goes again once.
    if (!(err as { reusedSocket?: boolean }).reusedSocket) throw err;
    return sendOnce(base, req, timeoutMs);
  }
}

function sendOnce(base: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(base);
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...(body && { 'content-length': String(body.length) }), ...req.headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      const raced = outgoing.reusedSocket && (err.code === 'ECONNRESET' || err.message === 'socket hang up');
      reject(Object.assign(err, { reusedSocket: raced }));
    });
    if (!body || body.length <= EARLY_ANSWER_BODY_BYTES) {
      outgoing.end(body);
      return;
    }
    // A server may refuse a large body from its Content-Length alone and close the connection
    // (Fastify does, with its 413). A client still uploading then races that close: the write can
    // fail with EPIPE before the answer is read. Like curl with large bodies, send the headers,
    // give the server a moment to answer, and upload only if it has not.
    outgoing.flushHeaders();
    const upload = setTimeout(() => outgoing.end(body), EARLY_ANSWER_WAIT_MS);
    outgoing.once('response', (res) => {
      clearTimeout(upload);
      res.once('end', () => outgoing.destroy());
    });
  });
}

/** Bodies above this size wait for an early answer before they are uploaded. */
const EARLY_ANSWER_BODY_BYTES = 64 * 1024;
const EARLY_ANSWER_WAIT_MS = 300;

/** Runs `work` over `items` with at most `limit` in flight, keeping results in order. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

export function closeAgent(): void {
  agent.destroy();
}

/**
 * Why an error message would not help a person, or null when it would: one short sentence of
 * words, no framework codes, stack frames, serialised objects or echoed control characters.
 */
export function unreadableMessage(message: unknown): string | null {
  if (typeof message !== 'string') return `message is ${message === undefined ? 'missing' : typeof message}`;
  if (message.length < 10) return 'message is too short to explain anything';
  if (message.length > 300) return 'message is longer than a sentence (echoing the input?)';
  if (!/^[\p{L}"']/u.test(message) || !message.includes(' ')) return 'message is not a sentence';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(message)) return 'message carries control characters';
  if (/\bundefined\b|\[object |\bat \S+ \(|\w+Error\b|\bFST_|\bERR_|\bE[A-Z]{4,}\b|JSON at position|Unexpected token/.test(message)) {
    return 'message exposes internals';
  }
  return null;
}
