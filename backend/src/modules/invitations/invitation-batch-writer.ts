import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { AppConfig } from '@core/config/app-config';
import {
  InvitationRepository,
  type InvitationSubmission,
  type IssuingSubmission,
} from '@core/database/repositories/invitation.repository';
import { hashAccessToken, invitationEmailContext, issueAccessToken, sealAccessToken } from '@core/invitations/access-token';
import { owe, type OwedJob } from '@core/queue/owe';

interface Pending {
  submission: IssuingSubmission;
  /** The token the submission gets if it is issued one; only its hash reaches the database. */
  token: string;
  resolve: (token: string | null) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 200;
const DAY_MS = 24 * 3600 * 1000;

/** Postgres class 22 ("data exception"): the values themselves cannot be stored. */
const isDataException = (err: unknown): boolean => /^22/.test(String((err as { code?: string | number }).code ?? ''));

const UNSTORABLE_MESSAGE = 'This submission contains characters or values that cannot be stored. Please check the fields and try again.';

/**
 * Writes invitation-gate submissions in batches, like the lead endpoint: every submission that
 * arrives within one event-loop turn shares one transaction of two statements (the upsert that
 * records them all and issues their tokens, then one outbox insert owing their e-mails) and one
 * commit. Each caller still waits for its own submission to be committed; under light load a
 * batch is a single submission and adds no delay.
 *
 * One statement cannot upsert an invitation twice, so a repeated address waits for the next
 * batch: submissions of one address are decided one after the other, whichever process they
 * reach (the upsert waits for the row's lock). Should a batch fail, its members are written one
 * by one so that only the offending submission fails.
 */
@Injectable()
export class InvitationBatchWriter {
  private readonly logger = new Logger(InvitationBatchWriter.name);
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationRepository,
    private readonly config: AppConfig,
  ) {}

  /** Records the submission; resolves with the access token it was issued, or null when it got none. */
  write(submission: InvitationSubmission): Promise<string | null> {
    const token = issueAccessToken();
    const tokenExpiresAt = new Date(Date.now() + this.config.INVITATION_TOKEN_TTL_DAYS * DAY_MS);
    return new Promise((resolve, reject) => {
      this.queue.push({ submission: { ...submission, tokenHash: hashAccessToken(token), tokenExpiresAt }, token, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const keys = new Set<string>();
      for (const item of this.queue) {
        const key = item.submission.emailNormalized;
        if (batch.length < MAX_BATCH && !keys.has(key)) {
          keys.add(key);
          batch.push(item);
        } else {
          rest.push(item);
        }
      }
      this.queue = rest;
      void this.run(batch);
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    // A stable lock order keeps concurrent batches that share addresses from deadlocking.
    batch.sort((a, b) => compare(a.submission.emailNormalized, b.submission.emailNormalized));
    try {
      const tokens = await this.dataSource.transaction((manager) => this.record(manager, batch));
      batch.forEach((pending, i) => pending.resolve(tokens[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(this.explain(err));
      this.logger.warn(
        { code: (err as { code?: unknown }).code, size: batch.length },
        'Invitation batch failed; writing its members one by one',
      );
      for (const pending of batch) {
        try {
          const [token] = await this.dataSource.transaction((manager) => this.record(manager, [pending]));
          pending.resolve(token);
        } catch (memberErr) {
          pending.reject(this.explain(memberErr));
        }
      }
    }
  }

  /** Records the batch and owes the e-mails it decided on, sealed tokens in their payloads; answers each member's issued token. */
  private async record(manager: EntityManager, batch: Pending[]): Promise<Array<string | null>> {
    const rows = await this.invitations.recordSubmissions(
      manager,
      batch.map((pending) => pending.submission),
      this.config.INVITATION_RESEND_WINDOW_MS,
    );
    rows.sort((a, b) => a.ord - b.ord);
    if (rows.length !== batch.length || rows.some((row, i) => row.ord !== i + 1)) {
      throw new Error(`Invitation batch returned ${rows.length} rows for ${batch.length} submissions`);
    }
    const tokens = Array.from<string | null>({ length: batch.length }).fill(null);
    const jobs: OwedJob[] = [];
    for (const row of rows) {
      const { token } = batch[row.ord - 1];
      if (row.issue === null) continue;
      tokens[row.ord - 1] = token;
      if (!row.owes_email) continue;
      const context = invitationEmailContext(row.invitation_id, row.issue);
      jobs.push({
        name: JOBS.invitationEmail,
        data: {
          invitationId: row.invitation_id,
          issue: row.issue,
          sealedToken: sealAccessToken(token, this.config.INVITATION_TOKEN_KEY_BYTES, context),
        },
      });
    }
    await owe(manager, jobs);
    return tokens;
  }

  /** Values Postgres refuses are the caller's to fix (400); anything else is ours (500). */
  private explain(err: unknown): unknown {
    return isDataException(err) ? new BadRequestException(UNSTORABLE_MESSAGE) : err;
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
