import { ForbiddenException, HttpException, ServiceUnavailableException } from '@nestjs/common';
import { HttpExceptionFilter } from './http-exception.filter';

/** What the filter sends for `exception` on an API request. */
function answer(exception: unknown): { status?: number; body?: unknown; headers: Record<string, string> } {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const request = { id: 'req-1', url: '/api//leads', method: 'GET' };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) };
  new HttpExceptionFilter(null, { poolRefusal: () => undefined, refuse: () => reply as never }).catch(exception, host as never);
  return sent;
}

/** A Fastify error as NestJS 12 hands it to the filters: an HttpException with its wording, the original as cause. */
const wrapped = (message: string, statusCode: number, code: string) =>
  new HttpException(message, statusCode, { cause: Object.assign(new Error(message), { statusCode, code }) });

describe('HttpExceptionFilter', () => {
  it("words Fastify's own refusals readably when NestJS wraps them", () => {
    expect(answer(wrapped('Forbidden', 403, 'FST_STATIC_FORBIDDEN_PATH'))).toMatchObject({
      status: 403,
      body: expect.objectContaining({ message: 'This address may not be opened' }),
    });
    expect(answer(wrapped('Unexpected token \'x\', "x" is not valid JSON', 400, 'FST_ERR_CTP_INVALID_JSON_BODY')).body).toMatchObject({
      statusCode: 400,
      message: 'The request body is not valid JSON',
    });
  });

  it('tells a client when to come back on every 503, a failed payment provider call too', () => {
    const sent = answer(new ServiceUnavailableException('The payment service is not answering right now. Please try again in a minute.'));
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe('5');
    expect(answer(new ForbiddenException('no')).headers['retry-after']).toBeUndefined();
  });

  it('keeps the message of an exception the code raised itself', () => {
    expect(answer(new ForbiddenException('Sign in again to change your account')).body).toMatchObject({
      statusCode: 403,
      message: 'Sign in again to change your account',
    });
  });
});
