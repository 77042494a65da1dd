import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AdminCancellations } from '@contracts/cancellation';
import { CancellationFeedbackRepository } from '@core/database/repositories/cancellation-feedback.repository';
import { AdminOnly } from '../../common/admin-access/admin.guard';

/** How many of the latest answers the screen lists. */
const RECENT = 20;

/** What members answered in the cancellation flow and what came of it, beside the save offer that is part of it. */
@ApiTags('admin')
@Controller('admin/cancellations')
@AdminOnly()
export class CancellationsController {
  constructor(private readonly feedback: CancellationFeedbackRepository) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Answers counted by reason and outcome, and the latest answers' })
  async list(): Promise<AdminCancellations> {
    const [counts, recent] = await Promise.all([this.feedback.counts(), this.feedback.recent(RECENT)]);
    return {
      counts,
      recent: recent.map((row) => ({
        createdAt: new Date(row.created_at).toISOString(),
        planId: row.plan_id,
        reason: row.reason,
        detail: row.detail,
        outcome: row.outcome,
        pauseMonths: row.pause_months,
      })),
    };
  }
}
