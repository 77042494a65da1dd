import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loggableError } from '../../common/log-redaction';
import { ServerConfig } from '@core/config/config-sections';
import { ADMIN_ROUTES } from '@contracts/route-table';
import { JobProducer } from '@core/queue/job-producer';
import { ADMIN_UNAUTHENTICATED_MESSAGE } from '../../common/admin-access/admin.guard';
import { AdminSessionService } from '../../common/admin-access/admin-session.service';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import {
  dashboardMutation,
  DashboardMutation,
  isSafeMethod,
  isSameOrigin,
  QUEUE_DASHBOARD_PATH,
  wantsPage,
} from './queue-dashboard.policy';

const CROSS_SITE_REFUSED = 'Cross-site requests to the queue dashboard are refused. Use the dashboard itself.';

/**
 * Mounts bull-board at /admin/queues over the API's own producer queues, in a Fastify scope of
 * its own: only there do the admin session check, the same-origin check on writes and the audit of
 * each write apply. Like every /admin path it gets the admin CSP (common/security.ts): no third
 * party, so bull-board's Google Fonts give way to the system font. Job data stays in the
 * responses; nothing here logs it.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  private readonly logger = new Logger(QueueDashboard.name);
  private readonly pendingAudit = new WeakMap<FastifyRequest, DashboardMutation & { adminId: string }>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly producer: JobProducer,
    private readonly sessions: AdminSessionService,
    private readonly audit: AuditRepository,
    private readonly config: ServerConfig,
  ) {}

  onModuleInit(): void {
    const board = new FastifyAdapter();
    createBullBoard({
      queues: this.producer.allQueues().map((queue) => new BullMQAdapter(queue, { allowRetries: true })),
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'Queues', hideDocsLink: true } },
    });
    board.setBasePath(QUEUE_DASHBOARD_PATH);
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Queued, not awaited: awaiting a register here loads the plugin queue early, before Nest has
    // installed its error handler, and the site's own 413/415 wording would be lost.
    void fastify.register(async (scope) => {
      scope.addHook('onRequest', (request, reply) => this.admit(request, reply));
      scope.addHook('onSend', async (request, reply, payload) => {
        await this.recordWrite(request, reply);
        return payload;
      });
      await scope.register(board.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
    });
  }

  private async admit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const admin = await this.sessions.authenticate(request.headers.cookie);
    if (!admin) {
      if (wantsPage(request.method, request.headers.accept)) {
        const path = request.url.split(/[?#]/, 1)[0];
        return reply.redirect(`${ADMIN_ROUTES.login}?next=${encodeURIComponent(path)}`, 302);
      }
      return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: ADMIN_UNAUTHENTICATED_MESSAGE });
    }
    if (isSafeMethod(request.method)) return;
    const ownOrigins = [new URL(this.config.PUBLIC_URL).origin, `${request.protocol}://${request.host}`];
    if (!isSameOrigin(request.headers, ownOrigins)) {
      return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: CROSS_SITE_REFUSED });
    }
    const route = (request.routeOptions.url ?? '').slice(QUEUE_DASHBOARD_PATH.length);
    const mutation = dashboardMutation(request.method, route, request.params as Record<string, string>);
    if ('refused' in mutation) return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: mutation.refused });
    this.pendingAudit.set(request, { ...mutation, adminId: admin.adminId });
  }

  /** A write that bull-board carried out lands in the audit log before its answer goes out. */
  private async recordWrite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const write = this.pendingAudit.get(request);
    if (!write || reply.statusCode >= 400) return;
    this.pendingAudit.delete(request);
    try {
      await this.audit.record({ adminId: write.adminId, action: write.action, target: write.target, clientIp: request.ip });
    } catch (err) {
      this.logger.error(
        { err: loggableError(err), action: write.action, target: write.target },
        'Queue dashboard action done but not audited',
      );
    }
  }
}
