import { loggableAddress, truncatedAddress } from './client-address';

const key = Buffer.alloc(32, 7);

describe('client addresses in request logs', () => {
  it('truncates IPv4 to its /24 and IPv6 to its /48, mapped IPv4 as IPv4', () => {
    expect(truncatedAddress('203.0.113.77')).toBe('203.0.113.0/24');
    expect(truncatedAddress('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(truncatedAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(truncatedAddress('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(truncatedAddress('::1')).toBe('0:0:0::/48');
    expect(truncatedAddress('not an address')).toBeNull();
  });

  it('hashes with the key: stable for one address, different for another and under another key, never the address', () => {
    const a = loggableAddress('203.0.113.77', 'hashed', key);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(loggableAddress('203.0.113.77', 'hashed', key)).toBe(a);
    expect(loggableAddress('203.0.113.78', 'hashed', key)).not.toBe(a);
    expect(loggableAddress('203.0.113.77', 'hashed', Buffer.alloc(32, 8))).not.toBe(a);
  });

  it('says nothing when told so or when there is no address', () => {
    expect(loggableAddress('203.0.113.77', 'none', key)).toBeUndefined();
    expect(loggableAddress(undefined, 'truncated', key)).toBeUndefined();
    expect(loggableAddress('203.0.113.77', 'truncated', key)).toBe('203.0.113.0/24');
  });
});
