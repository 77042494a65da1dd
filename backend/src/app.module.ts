import { Module, RequestMethod } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './modules/health/health.module';
import { LeadsModule } from './modules/leads/leads.module';
import { TestimonialsModule } from './modules/testimonials/testimonials.module';
import { DatabaseModule } from './shared/database/database.module';
import { QueueModule } from './shared/queue/queue.module';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // Nest 11's router wants named wildcards; the package default '*' logs a warning.
        forRoutes: [{ path: '*splat', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.LOG_LEVEL,
          base: { process: 'api' },
          // Fastify assigned the id (from X-Request-Id or a fresh UUID); logs and errors share it.
          genReqId: (req: IncomingMessage) => req.id ?? randomUUID(),
          redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          // A client's 4xx is routine (its message went back to the client); only 5xx is ours.
          customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          autoLogging: { ignore: (req) => req.url?.startsWith('/api/health') === true },
        },
      }),
    }),
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        throttlers: [{ name: 'writes', ttl: config.RATE_LIMIT_WINDOW_MS, limit: config.RATE_LIMIT_WRITES }],
        errorMessage: 'Too many requests from this device. Please wait a minute and try again.',
      }),
    }),
    DatabaseModule,
    QueueModule.forRole('producer'),
    HealthModule,
    LeadsModule,
    TestimonialsModule,
  ],
})
export class AppModule {}
