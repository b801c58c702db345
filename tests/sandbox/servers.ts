/** Servers the escape tests start on the host's loopback, outside any sandbox. */
import { type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

interface DnsResponder {
  serve(address: string, port: number, answer: string, onQuery?: () => void): Promise<Socket>;
}
/** Shared with the test host's namespace, which runs plain JavaScript (dns-responder.cjs). */
export const DNS_RESPONDER = fileURLToPath(new URL('./dns-responder.cjs', import.meta.url));
const responder = createRequire(import.meta.url)(DNS_RESPONDER) as DnsResponder;

/** A DNS server answering every A question with DNS_ANSWER (on the host's loopback unless told). */
export async function dnsServer(
  address = '127.0.0.1',
  port = 0,
): Promise<{ port: number; queries: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sock = await responder.serve(address, port, DNS_ANSWER, () => n++);
  return { port: sock.address().port, queries: () => n, close: () => new Promise((r) => sock.close(() => r())) };
}
