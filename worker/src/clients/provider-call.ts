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

/**
 * fetch, with its own rejection (refused connection, DNS, timeout) turned into a
 * ProviderUnavailableError that names only the error code, never the URL.
 */
export async function fetchOrUnavailable(service: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const error = err as Error & { cause?: { code?: string } };
    const code = error.cause?.code ?? (error.name === 'TimeoutError' ? 'timeout' : error.name);
    throw new ProviderUnavailableError(service, `unreachable (${code})`);
  }
}
