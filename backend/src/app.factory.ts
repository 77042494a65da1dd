import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { Logger } from 'nestjs-pino';
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppModule } from './app.module';
import { serveApiDocs } from './common/api-docs';
import { answerFrameworkError, HttpExceptionFilter } from './common/http-exception.filter';
import { loggableAddress } from './common/client-address';
import { LoadShedding } from './common/load-shedding/load-shedding.service';
import { loggablePath } from './common/log-redaction';
import { refuseForeignWrites } from './common/same-site-writes';
import { applySecurity } from './common/security';
import { fastifyTrustProxy } from './common/trust-proxy';
import { siteSettingsElement, siteSettingsOf } from './common/site-settings';
import { inlineScriptHashes, serveSpa } from './common/spa';
import { AppValidationPipe } from './common/validation.pipe';
import { BuiltPages } from './common/built-pages';
import { limitRawBodyRoutes } from './modules/payments/webhooks/raw-body.hook';
import { acceptOneClickUnsubscribeForms } from './modules/unsubscribe/one-click-body';
import { GrantedBlackcardDocument } from './modules/invitations/granted-blackcard-document';
import { InvitationsService } from './modules/invitations/invitations.service';
import type { ClientLimiter } from './common/client-limiter';
import { TOKEN_CHECK_LIMITER } from './modules/invitations/token-check-limiter';
import { ROUTES } from '@contracts/routes';
import { loadProcessConfig } from '@core/config/app-config';
import {
  AccessConfig,
  AffiliateConfig,
  AnalyticsConfig,
  MembershipConfig,
  PaymentsConfig,
  RateLimitConfig,
  ServerConfig,
} from '@core/config/config-sections';
import { PAYMENT_GATEWAY, type PaymentGateway } from '@core/payments/payment-gateway';

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** Builds the configured API (also used by the integration tests); the caller listens. */
export async function createApp(): Promise<NestFastifyApplication> {
  // Every setting is checked before Nest opens a connection: a bad one ends the boot at once, named.
  const bootConfig = ServerConfig.of(loadProcessConfig());
  const adapter = new FastifyAdapter({
    logger: {
      level: bootConfig.LOG_LEVEL,
      base: { process: 'api' },
      // Any line that carries the request (Fastify's own errors too) shows its path only.
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, path: loggablePath(req.url) }) },
    },
    // One line per request from the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: bootConfig.BODY_LIMIT_BYTES,
    frameworkErrors: answerFrameworkError,
    trustProxy: fastifyTrustProxy(bootConfig.TRUST_PROXY),
    genReqId: (req: IncomingMessage) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { bufferLogs: true });
  const server = app.get(ServerConfig);
  const payments = app.get(PaymentsConfig);
  // Its own key, derived from the server's secret: a logged hash means nothing without it.
  const clientAddressKey = createHmac('sha256', app.get(AccessConfig).INVITATION_TOKEN_KEY_BYTES).update('log-client-address').digest();
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix('api');
  const fastify = app.getHttpAdapter().getInstance();
  const shedding = app.get(LoadShedding);
  // Stripe's events may be large and come in bursts from Stripe's own addresses; the sandbox's are
  // small and only tests (or an older API's delivery jobs, which retry) post them.
  limitRawBodyRoutes(fastify, { bodyLimitBytes: payments.webhookBodyLimitBytes, perClientLimit: payments.paymentProvider() === 'sandbox' });
  acceptOneClickUnsubscribeForms(fastify);
  refuseForeignWrites(fastify, server.PUBLIC_URL);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/health')) return;
    // A client's 4xx is routine (its message went back to the client); only 5xx is ours, and of
    // those a request refused as load shed is a warning (funnel_http_shed_total counts them).
    const level = reply.statusCode < 500 ? 'info' : shedding.wasShed(request) ? 'warn' : 'error';
    request.log[level](
      {
        method: request.method,
        path: loggablePath(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        client: loggableAddress(request.ip, server.LOG_CLIENT_ADDRESS, clientAddressKey),
      },
      'request completed',
    );
  });

  // The ids and links of this deployment, written into the pages once, here (no rebuild per site).
  const siteSettings = siteSettingsOf(app.get(AnalyticsConfig), app.get(AffiliateConfig), app.get(MembershipConfig));
  await applySecurity(app, server, app.get(RateLimitConfig), {
    settings: siteSettings,
    inlineScripts: inlineScriptHashes(server.STATIC_DIR),
  });
  const settingsElement = siteSettingsElement(siteSettings);
  const grantedBlackcard = GrantedBlackcardDocument.fromBuild(
    server.STATIC_DIR,
    app.get(InvitationsService),
    app.get<ClientLimiter>(TOKEN_CHECK_LIMITER),
    settingsElement,
  );
  const spaFallback = await serveSpa(
    app,
    server.STATIC_DIR,
    app.get(BuiltPages),
    grantedBlackcard ? { [ROUTES.blackcard]: (req) => grantedBlackcard.render(req) } : {},
    // While payments move no real money (the sandbox, Stripe test keys) every page says so.
    { testMode: !app.get<PaymentGateway>(PAYMENT_GATEWAY).livemode, settingsElement },
  );
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(spaFallback, shedding));
  serveApiDocs(app, server);
  return app;
}
