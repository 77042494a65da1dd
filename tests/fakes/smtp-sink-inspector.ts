import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SmtpSink } from './smtp-sink';

/**
 * Lets another process (the browser tests) read what an in-process SMTP sink received:
 * `GET /__messages?to=<address>` answers the accepted messages to that address (all without `to`);
 * `GET /__door` answers, without bodies, every delivery attempt (`deliveriesAtDoor`) and each accepted
 * message's recipients and Message-ID, for counting thousands of messages.
 */
export class SmtpSinkInspector {
  private server: Server | null = null;

  constructor(private readonly sink: SmtpSink) {}

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://inspector');
      if (req.method === 'GET' && url.pathname === '/__door') {
        const accepted = this.sink.messages.map((m) => ({ to: m.envelope.to, messageId: m.messageId }));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ attempts: this.sink.deliveriesAtDoor(), accepted }));
        return;
      }
      if (req.method !== 'GET' || url.pathname !== '/__messages') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const to = url.searchParams.get('to')?.toLowerCase();
      const messages = to
        ? this.sink.messages.filter((m) => m.envelope.to.some((address) => address.toLowerCase() === to))
        : this.sink.messages;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/__messages`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
