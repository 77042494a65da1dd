import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { UNSUBSCRIBE_PATH } from '@core/marketing/unsubscribe-token';

/**
 * RFC 8058 lets a mail client send the one-click body `List-Unsubscribe=One-Click` as
 * application/x-www-form-urlencoded (parsed for every route already) or multipart/form-data. The
 * unsubscribe endpoint reads only its token from the URL, so a multipart body is read (within
 * the body limit) and set aside there; every other route still refuses multipart with a 415.
 */
export function acceptOneClickUnsubscribeForms(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (request, _body, done) => {
    if (request.url.split('?', 1)[0].replace(/\/+$/, '') === UNSUBSCRIBE_PATH) done(null, {});
    else done(new UnsupportedMediaTypeException('multipart/form-data is not accepted here.'), undefined);
  });
}
