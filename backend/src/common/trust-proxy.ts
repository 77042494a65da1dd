import type { TrustProxy } from '@core/config/app-config';

/**
 * TRUST_PROXY as Fastify's `trustProxy`. Fastify 5.12 reads a bare hop count as "trust nobody"
 * (it cannot check the nearest peer), which would put every client behind the proxy into one
 * rate-limit bucket; a count keeps meaning "the last N hops" (proxy-addr's rule) as documented
 * in docs/operations.md, where the address list is recommended when the proxies are known.
 */
export function fastifyTrustProxy(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}
