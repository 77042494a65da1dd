import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's baseline). The PHC
 * string records its parameters, so hashes made with other settings keep verifying.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a hash that cannot be read; never throws on either. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/**
 * A hash no password matches, verified when the address has no account so that a wrong address
 * costs as much time as a wrong password and answer times tell nothing.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hash(randomBytes(32).toString('base64'));
  return dummy;
}
