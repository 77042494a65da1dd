import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { LoadSheddingConfig } from '@core/config/config-sections';
import { type AdmissionContext, PoolAdmission, runWithAdmission, type PoolBusyReason } from '@core/database/pool-admission';
import { sendError } from '../error-body';
import { EventLoopDelay } from './event-loop-delay';
import { requestClass, type RequestClass } from './route-classes';

/** What the client reads: nothing was done, nothing is wrong with their request, try again shortly. */
export const BUSY_MESSAGE = 'We are very busy right now, so this request was not taken. Please try again in a few seconds.';

export type ShedReason = 'event_loop' | PoolBusyReason;

/**
 * Sheds load instead of timing out. When this API process is saturated it answers at once with
 * 503, Retry-After and BUSY_MESSAGE rather than letting a buyer wait for a pool timeout:
 *
 * - at arrival, when the event loop is further behind than SHED_EVENT_LOOP_DELAY_MS (the money
 *   path: SHED_MONEY_EVENT_LOOP_DELAY_MS);
 * - at a database connection: requests outside the money path and its checkouts
 *   (route-classes.ts) take theirs from the shared part of the pool (all but
 *   SHED_MONEY_RESERVED_CONNECTIONS) and wait at most SHED_WAIT_MS for one; every request waits at
 *   most DATABASE_ACQUIRE_TIMEOUT_MS in the pool, and none joins a line of SHED_MAX_POOL_WAITING
 *   callers already waiting there, nor a new checkout one of SHED_CHECKOUT_MAX_POOL_WAITING.
 *
 * So under pressure leads and invitations are refused first, then new checkouts, and purchases
 * already under way still get connections: past capacity a buyer is turned away before typing a
 * card, not after.
 * Each refusal counts in funnel_http_shed_total{reason,class}. Refusals are global (the process
 * is busy, not the client too eager): 503, never 429.
 */
@Injectable()
export class LoadShedding implements OnModuleInit, OnApplicationShutdown {
  readonly registry = new Registry();
  private readonly shed: Counter<'reason' | 'class'>;
  private readonly loop = new EventLoopDelay();
  private readonly refused = new WeakSet<FastifyRequest>();
  private readonly admissions = new WeakMap<FastifyRequest, AdmissionContext>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: LoadSheddingConfig,
    private readonly dataSource: DataSource,
  ) {
    this.shed = new Counter({
      name: 'funnel_http_shed_total',
      help: 'Requests refused with 503 because the API was saturated, by reason (event_loop, shared_connections, pool_queue, pool_timeout) and route class (money, checkout, standard)',
      labelNames: ['reason', 'class'],
      registers: [this.registry],
    });
    for (const klass of ['money', 'checkout', 'standard'])
      for (const reason of ['event_loop', 'shared_connections', 'pool_queue', 'pool_timeout']) this.shed.inc({ reason, class: klass }, 0);
  }

  onModuleInit(): void {
    const admission = PoolAdmission.install(this.dataSource, {
      reserved: this.config.SHED_MONEY_RESERVED_CONNECTIONS,
      sharedWaitMs: this.config.SHED_WAIT_MS,
      maxWaiting: this.config.SHED_MAX_POOL_WAITING,
    });
    new Gauge({
      name: 'funnel_db_pool_shared_connections',
      help: "This API process's shared pool connections (all but those kept for the money path): held, limit, and requests waiting for one",
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const { held, limit, waiting } = admission.shared;
        this.set({ state: 'held' }, held);
        this.set({ state: 'limit' }, limit);
        this.set({ state: 'waiting' }, waiting);
      },
    });
    this.loop.start();
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, reply, done) => {
      const klass = this.classOf(request);
      if (klass !== 'exempt' && this.loop.delayMs() > this.delayLimit(klass)) {
        this.refuse(request, reply, 'event_loop');
        return;
      }
      done();
    });
    // The handler (guards, pipes, controller, and all they await or schedule) runs in this context.
    fastify.addHook('preHandler', (request, _reply, done) => {
      const klass = this.classOf(request);
      const context: AdmissionContext =
        klass === 'checkout' ? { shared: false, maxWaiting: this.config.SHED_CHECKOUT_MAX_POOL_WAITING } : { shared: klass === 'standard' };
      this.admissions.set(request, context);
      runWithAdmission(context, done);
    });
  }

  onApplicationShutdown(): void {
    this.loop.stop();
  }

  /** The 503 "busy" answer, counted under `reason` and the request's class. */
  refuse(request: FastifyRequest, reply: FastifyReply, reason: ShedReason): FastifyReply {
    const klass = this.classOf(request);
    this.shed.inc({ reason, class: klass === 'exempt' ? 'standard' : klass });
    this.refused.add(request);
    reply.header('retry-after', String(this.config.SHED_RETRY_AFTER_S));
    return sendError(request, reply, 503, BUSY_MESSAGE);
  }

  /**
   * Why the pool refused this request a connection, if it did: its failure is then an answer of
   * "busy", whatever the code in between made of the error (a payment service that wraps every
   * failure of its sandbox provider, which keeps its state in Postgres, as "provider down").
   */
  poolRefusal(request: FastifyRequest): PoolBusyReason | undefined {
    return this.admissions.get(request)?.refused;
  }

  /** Whether this request was refused as load shed (its 503 is routine, not an error of ours). */
  wasShed(request: FastifyRequest): boolean {
    return this.refused.has(request);
  }

  private classOf(request: FastifyRequest): RequestClass {
    return requestClass(request.method, request.routeOptions.url);
  }

  private delayLimit(klass: RequestClass): number {
    return klass === 'money' ? this.config.SHED_MONEY_EVENT_LOOP_DELAY_MS : this.config.SHED_EVENT_LOOP_DELAY_MS;
  }
}
