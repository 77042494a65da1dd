import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postOrUnavailable, ProviderUnavailableError } from './provider-call';

const SECRET = 'secret-token-123';
let server: Server;
let base: string;
/** What the server does with each request; set per test. */
let behaviour: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
const received: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method, headers: req.headers, body });
      behaviour(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => (received.length = 0));

const post = (timeoutMs = 2000, url = `${base}/hook?key=${SECRET}`) =>
  postOrUnavailable('Test service', url, { headers: { 'content-type': 'application/json', 'x-key': 'k' }, body: '{"a":1}', timeoutMs });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: Error) => err,
  );

describe('postOrUnavailable', () => {
  it('POSTs the body and headers, and answers the status and the body', async () => {
    behaviour = (_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    const response = await post();
    expect(response).toMatchObject({ status: 201, ok: true });
    expect(await response.text()).toBe('{"ok":true}');
    expect(received).toEqual([
      { method: 'POST', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-key': 'k' }), body: '{"a":1}' },
    ]);
  });

  it('answers a non-2xx as not ok, and can discard its body', async () => {
    behaviour = (_req, res) => res.writeHead(503).end('busy');
    const response = await post();
    expect(response).toMatchObject({ status: 503, ok: false });
    await expect(response.discard()).resolves.toBeUndefined();
  });

  it('turns a server that does not answer in time into "unreachable (timeout)", naming no URL', async () => {
    behaviour = () => undefined;
    const err = await failure(post(150));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toBe('Test service unreachable (timeout)');
  });

  it('turns a body that stops coming into the same error when it is read', async () => {
    behaviour = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('partial');
    };
    const response = await post(200);
    const err = await failure(response.text());
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toBe('Test service unreachable (timeout)');
  });

  it('turns a refused connection into "unreachable (ECONNREFUSED)", naming no URL or secret', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(post(2000, `http://127.0.0.1:${port}/hook?key=${SECRET}`));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toBe('Test service unreachable (ECONNREFUSED)');
    expect((err as Error).message).not.toContain(SECRET);
  });
});
