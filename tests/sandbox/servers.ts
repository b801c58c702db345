/** Servers the escape tests start on the host's loopback, outside any sandbox. */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';

export const GREETING = 'hello-from-the-host';

/** A TCP server that greets every connection and closes it. */
export async function tcpServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((s) => {
    n++;
    s.end(GREETING);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

export const DNS_ANSWER = '10.20.30.40';

/** A DNS server answering every A question with DNS_ANSWER. */
export async function dnsServer(): Promise<{ port: number; queries: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sock: Socket = createSocket('udp4');
  sock.on('message', (msg, rinfo) => {
    n++;
    // Header: copy the id, set QR + RD + RA, one question, one answer.
    let end = 12;
    while (end < msg.length && msg[end] !== 0) end += msg[end]! + 1;
    const question = msg.subarray(12, end + 5);
    const header = Buffer.from([msg[0]!, msg[1]!, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]);
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...DNS_ANSWER.split('.').map(Number)]);
    sock.send(Buffer.concat([header, question, answer]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
  return { port: sock.address().port, queries: () => n, close: () => new Promise((r) => sock.close(() => r())) };
}
