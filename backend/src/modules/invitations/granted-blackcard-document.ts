import { HttpException, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BLACKCARD_GRANT, type BlackcardGrant } from '@contracts/blackcard-grant';
import { loggableError } from '../../common/log-redaction';
import { scriptSafeJson } from '../../common/script-safe-json';
import { withSiteSettings } from '../../common/site-settings';
import { InvitationsService } from './invitations.service';
import type { ClientLimiter } from '../../common/client-limiter';

/** The granted document with the invitee in place of the build's placeholder (@contracts/blackcard-grant). */
export function fillGrantedBlackcard(template: string, invitee: BlackcardGrant): string {
  const placeholder = `>${BLACKCARD_GRANT.json}</script>`;
  const grant = scriptSafeJson({ token: invitee.token, email: invitee.email, name: invitee.name });
  // A function replacement: `$` in a value is text, not a replacement pattern.
  return template.replace(placeholder, () => `>${grant}</script>`);
}

/**
 * `/blackcard?token=…` as a checked token's document (spec section 4, /blackcard access): the
 * server validates the query token, counted like GET /api/validate-token, and when it is valid and
 * its invitee complete, sends the page with its content already in the HTML (no spinner, no
 * second round trip before the first meaningful paint). Anything else (no token, unknown token,
 * too many checks, the database away) answers null: the verifying document goes out and the
 * browser runs the access check itself, with the spec's outcomes.
 */
export class GrantedBlackcardDocument {
  private readonly logger = new Logger(GrantedBlackcardDocument.name);

  private constructor(
    private readonly template: string,
    private readonly invitations: InvitationsService,
    private readonly limiter: ClientLimiter,
  ) {}

  /**
   * Null when the web build wrote no granted document (an API-only start, or an older build).
   * `settingsElement`: the site's run-time settings (common/site-settings.ts), put in once, here.
   */
  static fromBuild(
    staticDir: string,
    invitations: InvitationsService,
    limiter: ClientLimiter,
    settingsElement: string | null = null,
  ): GrantedBlackcardDocument | null {
    const file = resolve(staticDir, BLACKCARD_GRANT.document);
    if (!existsSync(file)) return null;
    const template = readFileSync(file, 'utf8');
    if (!template.includes(`>${BLACKCARD_GRANT.json}</script>`)) {
      throw new Error(`${BLACKCARD_GRANT.document} lacks the invitee placeholder; rebuild the web app`);
    }
    return new GrantedBlackcardDocument(
      settingsElement === null ? template : withSiteSettings(template, settingsElement),
      invitations,
      limiter,
    );
  }

  async render(request: FastifyRequest): Promise<string | null> {
    const token = new URL(request.url, 'http://page').searchParams.get('token')?.trim();
    if (!token) return null;
    try {
      await this.limiter.consume(request.ip);
      const { email, name } = await this.invitations.invitee(token);
      return email && name ? fillGrantedBlackcard(this.template, { token, email, name }) : null;
    } catch (err) {
      // 404 and 429 are the browser's check's to answer; anything else is worth a line (no token in it).
      if (!(err instanceof HttpException)) this.logger.warn({ err: loggableError(err) }, 'Access token not checked for /blackcard');
      return null;
    }
  }
}
