import { BadRequestException, Injectable } from '@nestjs/common';
import { AccessConfig } from '@core/config/config-sections';
import { EmailSuppressionRepository } from '@core/database/repositories/email-suppression.repository';
import { unsubscribeKey, verifyUnsubscribeToken } from '@core/marketing/unsubscribe-token';

const BAD_LINK = 'This unsubscribe link is not valid. Please use the link from the most recent e-mail, copied in full.';

/** Checks unsubscribe tokens (no lookup: they are signed) and records the address as unsubscribed from marketing e-mail. */
@Injectable()
export class UnsubscribeService {
  private readonly key: Buffer;

  constructor(
    private readonly suppressions: EmailSuppressionRepository,
    config: AccessConfig,
  ) {
    this.key = unsubscribeKey(config.INVITATION_TOKEN_KEY_BYTES);
  }

  /** Throws a readable 400 for a malformed or forged token. */
  check(token: unknown): string {
    const emailNormalized = verifyUnsubscribeToken(token, this.key);
    if (!emailNormalized) throw new BadRequestException(BAD_LINK);
    return emailNormalized;
  }

  async unsubscribe(token: unknown): Promise<void> {
    await this.suppressions.suppress(this.check(token));
  }
}
