import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

import type { ClientAddressLogging } from '@core/config/app-config';

/** The IPv4 /24 or IPv6 /48 a client address belongs to; an IPv4-mapped IPv6 address counts as IPv4. */
export function truncatedAddress(ip: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return null;
  const [head] = address.split('::');
  const groups = head.split(':').filter(Boolean);
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::/48`;
}

/**
 * What a request line says about the client, for telling one card tester's requests from a crowd
 * without keeping who anybody is: the network (requests of neighbours look alike), or a keyed
 * hash of the full address (the same client looks the same across lines and replicas, and the key
 * stays on the server), or nothing.
 */
export function loggableAddress(ip: string | undefined, mode: ClientAddressLogging, key: Buffer): string | undefined {
  if (!ip || mode === 'none') return undefined;
  if (mode === 'hashed') return createHmac('sha256', key).update(ip).digest('hex').slice(0, 16);
  return truncatedAddress(ip) ?? undefined;
}
