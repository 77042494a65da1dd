import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { site } from '@contracts/site/site';
import type { ServerConfig } from '@core/config/config-sections';
import { AdminSessionService } from './admin-access/admin-session.service';
import { sendError } from './error-body';
import { NO_SUCH_ROUTE } from './http-exception.filter';

const DOCS_PATH = 'api/docs';
/** Every route Swagger mounts: the page and its assets (/api/docs/…), the JSON and YAML (/api/docs-json, -yaml). */
const DOCS_ROUTE = /^\/api\/docs(?:[/-]|$)/;

/**
 * The OpenAPI document and its page. In production the document maps every route an attacker
 * could try, so unless API_DOCS=public only a signed-in admin gets it; anyone else gets the 404 of
 * an address that does not exist. Outside production it is open.
 */
export function serveApiDocs(app: NestFastifyApplication, config: ServerConfig): void {
  if (config.NODE_ENV === 'production' && config.API_DOCS !== 'public') {
    const sessions = app.get(AdminSessionService);
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRequest', async (request, reply) => {
        // The matched route, not the raw URL: no spelling of the address slips past.
        if (!DOCS_ROUTE.test(request.routeOptions.url ?? '')) return;
        if (await sessions.authenticate(request.headers.cookie)) return;
        return sendError(request, reply, 404, NO_SUCH_ROUTE);
      });
  }
  const openApi = new DocumentBuilder()
    .setTitle(`${site.brand.programName} funnel API`)
    .setDescription(`Lead capture, checkout, invitations and testimonials for the ${site.brand.programName} membership funnel.`)
    .setVersion('1')
    .build();
  SwaggerModule.setup(DOCS_PATH, app, () => SwaggerModule.createDocument(app, openApi));
}
