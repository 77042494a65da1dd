import { connect, Socket } from 'node:net';

export interface RawResponse {
  status: number;
  body: any;
}

/**
 * Posts JSON bodies so that the API (in this process) receives them all in one event-loop turn,
 * as happens under load: every connection is open and every request written before this thread
 * pauses, so that when it resumes the server finds all the requests waiting at once.
 */
export async function postSimultaneously(baseUrl: string, path: string, bodies: unknown[]): Promise<RawResponse[]> {
  const { hostname, port } = new URL(baseUrl);
  const sockets = await Promise.all(
    bodies.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  // The server accepts one waiting connection per event-loop turn: give it time to take them all.
  await new Promise((resolve) => setTimeout(resolve, 100 + 5 * bodies.length));
  const responses = sockets.map(readResponse);
  sockets.forEach((socket, i) => {
    const body = Buffer.from(JSON.stringify(bodies[i]));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body);
  });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  return Promise.all(responses);
}

function readResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const raw = rest.join('\r\n\r\n');
      resolve({ status, body: raw ? JSON.parse(raw) : undefined });
    });
  });
}
