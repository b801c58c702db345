/**
 * The escape tests' DNS server: answers every A question with one address. Plain CommonJS so
 * the same code runs in-process (servers.ts) and in a test host's namespace (netns-host.ts),
 * where a spawned `node` cannot load TypeScript.
 */
'use strict';
const { createSocket } = require('node:dgram');

/** The answer to one query: the id copied, QR + RD + RA, the question, one A record. */
function reply(msg, answer) {
  let end = 12;
  while (end < msg.length && msg[end] !== 0) end += msg[end] + 1;
  const question = msg.subarray(12, end + 5);
  const header = Buffer.from([msg[0], msg[1], 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]);
  const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...answer.split('.').map(Number)]);
  return Buffer.concat([header, question, record]);
}

/** A UDP socket bound to address:port answering with `answer`; `onQuery` counts. Resolves once bound. */
function serve(address, port, answer, onQuery) {
  const sock = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  sock.on('message', (msg, rinfo) => {
    if (onQuery) onQuery();
    sock.send(reply(msg, answer), rinfo.port, rinfo.address);
  });
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, address, () => resolve(sock));
  });
}

module.exports = { reply, serve };
