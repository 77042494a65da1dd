import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JOBS } from '@contracts/jobs';
import { AccessConfig } from '@core/config/config-sections';
import { InvitationRepository, type InvitationSubmission, type IssuingSubmission } from '@core/database/repositories/invitation.repository';
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
/** Batches writing at once; later submissions gather into the next batch meanwhile, so commits stay few. */
const MAX_IN_FLIGHT = 4;
const DAY_MS = 24 * 3600 * 1000;
/** The issue number of an invitation's first token. */
const FIRST_ISSUE = 1;

/** Postgres class 22 ("data exception"): the values themselves cannot be stored. */
const isDataException = (err: unknown): boolean => /^22/.test(String((err as { code?: string | number }).code ?? ''));

const UNSTORABLE_MESSAGE = 'This submission contains characters or values that cannot be stored. Please check the fields and try again.';

/**
 * Writes invitation-gate submissions in batches, like the lead endpoint: every submission that
 * arrives within one event-loop turn shares one statement, which records them all, issues their
 * tokens and owes the e-mails of the invitations it creates, and commits on its own (a
 * resubmission that owes a new e-mail takes a second transaction: see `recordAtOnce`). Each
 * caller still waits for its own submission to be committed; under light load a batch is a
 * single submission and adds no delay. At most MAX_IN_FLIGHT batches write at once: under load
 * the next submissions gather meanwhile, so batches grow rather than commits multiply (measured
 * on the 2-core bench machine: p99 at 64 connections about halved).
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
  private inFlight = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationRepository,
    private readonly config: AccessConfig,
  ) {}

  /** Records the submission; resolves with the access token it was issued, or null when it got none. */
  write(submission: InvitationSubmission): Promise<string | null> {
    const token = issueAccessToken();
    const newId = randomUUID();
    const key = this.config.INVITATION_TOKEN_KEY_BYTES;
    const issuing: IssuingSubmission = {
      ...submission,
      tokenHash: hashAccessToken(token),
      tokenExpiresAt: new Date(Date.now() + this.config.INVITATION_TOKEN_TTL_DAYS * DAY_MS),
      newId,
      newSealedToken: sealAccessToken(token, key, invitationEmailContext(newId, FIRST_ISSUE)),
    };
    return new Promise((resolve, reject) => {
      this.queue.push({ submission: issuing, token, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
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
      // A stable lock order keeps concurrent batches that share addresses from deadlocking.
      batch.sort((a, b) => compare(a.submission.emailNormalized, b.submission.emailNormalized));
      this.inFlight += 1;
      void this.isolated(batch, (members) => this.recordAtOnce(members)).finally(() => {
        this.inFlight -= 1;
        if (this.queue.length > 0 && !this.scheduled) {
          this.scheduled = true;
          setImmediate(() => this.flush());
        }
      });
    }
  }

  /**
   * Runs `attempt` (which settles the members it records) on the members together; should it
   * fail, on each member alone, so that only a member that fails on its own is refused. An
   * attempt that fails has recorded nothing: its writes are one transaction.
   */
  private async isolated(members: Pending[], attempt: (members: Pending[]) => Promise<void>): Promise<void> {
    try {
      await attempt(members);
    } catch (err) {
      if (members.length === 1) return members[0].reject(this.explain(err));
      this.logger.warn(
        { code: (err as { code?: unknown }).code, size: members.length },
        'Invitation batch failed; writing its members one by one',
      );
      for (const member of members) {
        try {
          await attempt([member]);
        } catch (memberErr) {
          member.reject(this.explain(memberErr));
        }
      }
    }
  }

  /**
   * The usual case in one statement, its own transaction: new invitations with their e-mails
   * owed, and resubmissions that owe none. A resubmission whose invitation owes a new e-mail
   * (its last one is older than the resend window) is left out and recorded next, in a
   * transaction that owes the e-mail with the invitation's id and issue.
   */
  private async recordAtOnce(members: Pending[]): Promise<void> {
    const rows = await this.invitations.recordSubmissions(this.dataSource.manager, submissionsOf(members), this.resendWindowMs, {
      oweNew: true,
    });
    const byOrd = new Map(rows.map((row) => [row.ord, row]));
    const left: Pending[] = [];
    members.forEach((member, i) => {
      const row = byOrd.get(i + 1);
      if (row) member.resolve(row.issue === null ? null : member.token);
      else left.push(member);
    });
    if (left.length > 0) await this.isolated(left, (owing) => this.recordOwingExisting(owing));
  }

  /** Records the members and owes the e-mails they decided on, sealed tokens in their payloads, in one transaction. */
  private async recordOwingExisting(members: Pending[]): Promise<void> {
    const tokens = await this.dataSource.transaction(async (manager) => {
      const rows = await this.invitations.recordSubmissions(manager, submissionsOf(members), this.resendWindowMs, { oweNew: false });
      rows.sort((a, b) => a.ord - b.ord);
      if (rows.length !== members.length || rows.some((row, i) => row.ord !== i + 1)) {
        throw new Error(`Invitation batch returned ${rows.length} rows for ${members.length} submissions`);
      }
      const jobs: OwedJob[] = [];
      for (const row of rows) {
        if (!row.owes_email || row.issue === null) continue;
        const { token } = members[row.ord - 1];
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
      return rows.map((row) => (row.issue === null ? null : members[row.ord - 1].token));
    });
    members.forEach((member, i) => member.resolve(tokens[i]));
  }

  private get resendWindowMs(): number {
    return this.config.INVITATION_RESEND_WINDOW_MS;
  }

  /** Values Postgres refuses are the caller's to fix (400); anything else is ours (500). */
  private explain(err: unknown): unknown {
    return isDataException(err) ? new BadRequestException(UNSTORABLE_MESSAGE) : err;
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const submissionsOf = (members: readonly Pending[]): IssuingSubmission[] => members.map((member) => member.submission);
