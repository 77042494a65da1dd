import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Invitation access tokens. A token is 32 bytes from the CSPRNG (256 bits), base64url: 43
 * characters that travel unescaped in a path or a query string. Postgres stores only its SHA-256
 * (hex): with 256 bits of entropy no salt is needed and nothing can be guessed from the hash, and
 * an unsalted hash lets validation find the row through a unique index. Comparing hashes rather
 * than tokens means a lookup's timing can reveal at most something about a hash, never the token.
 *
 * The worker must put the plain token into the invitation e-mail. It gets it sealed: the API
 * encrypts the token with AES-256-GCM (INVITATION_TOKEN_KEY) into the job's outbox payload, bound
 * to that job by its additional data, and the worker opens it just before sending. Every retry of
 * the job therefore mails the same token the API issued, and neither the database nor Redis ever
 * holds it in the clear.
 */

const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const SEALED_VERSION = 'v1';
const IV_BYTES = 12;

export function issueAccessToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** The one hash of a token: invitations store it, orders record it for the token they were placed with. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A token only the holder of `key` can compute from `context` (a random id naming what it opens):
 * the worker issues an account sign-in link's token this way, so every retry of its job mails the
 * same token without the token being stored or sealed anywhere. Keyed by a subkey of its own.
 */
export function deriveAccessToken(key: Buffer, context: string): string {
  const subkey = createHmac('sha256', key).update('derived-access-token').digest();
  return createHmac('sha256', subkey).update(context, 'utf8').digest('base64url');
}

/** Whether `value` can be a token we issued at all; anything else is refused without a lookup. */
export function isWellFormedAccessToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** `v1.<iv>.<ciphertext>.<tag>`, base64url; `context` names the job it belongs to and must match on opening. */
export function sealAccessToken(token: string, key: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [SEALED_VERSION, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The token sealed by `sealAccessToken`; throws if the key, the context or a single bit differs. */
export function openAccessToken(sealed: string, key: Buffer, context: string): string {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== SEALED_VERSION || !iv || !ciphertext || !tag || rest.length > 0)
    throw new Error('Sealed access token has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** The additional data a sealed token of an invitation e-mail is bound to. */
export const invitationEmailContext = (invitationId: string, issue: number): string => `invitation-email:${invitationId}:${issue}`;

/** What an account sign-in link's token is derived from (`deriveAccessToken`); earlier, what its sealed token was bound to. */
export const accountLinkEmailContext = (tokenId: string): string => `account-link-email:${tokenId}`;

/** The additional data the sealed address of a sign-in link request is bound to. */
export const accountLinkRequestContext = (requestId: string): string => `account-link-request:${requestId}`;
