import { request } from 'undici';

/**
 * A third-party answer that may change on a retry: a 5xx, 408, 429, a network failure or a
 * timeout. The message names the service and the status or error code only: URLs can carry
 * secrets in their query string and response bodies can echo the personal data we sent.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly service: string,
    readonly reason: string,
  ) {
    super(`${service} ${reason}`);
  }
}

/**
 * A send was attempted without the integration's settings. Callers check `configured` first and
 * record "skipped: not configured"; reaching the send anyway is a wiring fault, thrown so the
 * ledger leaves the claim open instead of recording the effect as done.
 */
export class NotConfiguredError extends Error {
  constructor(readonly service: string) {
    super(`${service} is not configured`);
  }
}

/** Statuses that a repeat of the same request can turn into a success. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** A POST to a third party, its body already serialised. */
export interface ProviderRequest {
  headers: Record<string, string>;
  body: string;
  /** Bounds the whole exchange: connecting, the answer's head and its body. */
  timeoutMs: number;
}

/** The third party's answer: its status, and its body read or discarded once. */
export interface ProviderResponse {
  status: number;
  /** 2xx. */
  ok: boolean;
  text(): Promise<string>;
  /** Reads the body to its end without keeping it, so the connection is reused. */
  discard(): Promise<void>;
}

/**
 * POSTs through undici's `request` (the global dispatcher's keep-alive connections), which costs a
 * fraction of the CPU `fetch` spends on its WHATWG objects and streams per call: a purchase makes
 * several such calls. Its own failures (refused connection, DNS, timeout), while sending or while
 * reading the body, become a ProviderUnavailableError that names only the error code, never the URL.
 */
export async function postOrUnavailable(service: string, url: string, req: ProviderRequest): Promise<ProviderResponse> {
  const unavailable = (err: unknown) => new ProviderUnavailableError(service, `unreachable (${errorCode(err)})`);
  try {
    const { statusCode, body } = await request(url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    return {
      status: statusCode,
      ok: statusCode >= 200 && statusCode < 300,
      text: () => body.text().catch((err: unknown) => Promise.reject(unavailable(err))),
      discard: () => body.dump().catch((err: unknown) => Promise.reject(unavailable(err))),
    };
  } catch (err) {
    throw unavailable(err);
  }
}

/** An error's code (ECONNREFUSED, UND_ERR_SOCKET, ...), or "timeout", or its name. */
function errorCode(err: unknown): string {
  const error = err as Error & { code?: unknown; cause?: { code?: unknown } };
  if (error.name === 'TimeoutError') return 'timeout';
  const code = error.code ?? error.cause?.code;
  return typeof code === 'string' ? code : error.name;
}
