#!/usr/bin/env node
/**
 * A scripted stand-in for the coding agents' model APIs, run by the real-agent suites
 * (tests/agents/) inside the test network's model host. It records every request the agent
 * sends (method, path, headers, body), one JSON line each, and answers the agent's turns
 * from a script, so the real CLI makes real tool calls deterministically and offline.
 *
 *   node model-api.mjs --listen ADDR:PORT --script FILE --log FILE
 *
 * The script is a JSON array of steps, consumed one per agent turn (a request a vendor
 * module counts as the main loop; side requests such as title generation get a plain
 * answer and consume nothing):
 *   { "tool": NAME, "input": {...} }      call the agent's tool NAME with that input
 *   { "text": "..." }                     answer in text and end the turn
 *   { "error": { "status": 401, "body": {...} } }   an HTTP error instead of a turn
 *   { "cut": true }                        start streaming, then drop the connection
 * Past the end of the script every turn answers "done.".
 *
 * For runs with many sessions at once (an eval's trials), the script may instead be
 *   { "conversations": [ { "when": { "includes": S, "excludes": S }, "steps": [...] }, ... ] }
 * Each request then plays the first conversation whose `when` holds for the text the agent
 * sent (system prompt and messages), at the step its own history has reached (the number
 * of model turns in it): no shared counter, so the order sessions run in does not matter.
 *
 * Vendors live in vendors/*.mjs:
 * each says which requests are its own, which of them are turns, and how to stream a step.
 * It prints "listening" on stdout once it accepts connections.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { anthropic } from './vendors/anthropic.mjs';
import { gemini } from './vendors/gemini.mjs';
import { openai } from './vendors/openai.mjs';

const VENDORS = [anthropic, openai, gemini];

const args = process.argv.slice(2);
const arg = (name) => {
  const i = args.indexOf(name);
  if (i < 0 || i + 1 >= args.length) throw new Error(`model-api: ${name} is required`);
  return args[i + 1];
};
const [host, port] = arg('--listen').split(/:(?=\d+$)/);
const script = JSON.parse(readFileSync(arg('--script'), 'utf8'));
const log = arg('--log');
let next = 0;
let turns = 0;

/** The step this turn plays (see the header). */
function pick(vendor, body) {
  if (Array.isArray(script)) return script[next++] ?? { text: 'done.' };
  const text = vendor.texts(body).join('\n');
  const conversation = script.conversations.find(
    ({ when = {} }) =>
      (when.includes === undefined || text.includes(when.includes)) &&
      (when.excludes === undefined || !text.includes(when.excludes)),
  );
  return conversation?.steps[vendor.turnIndex(body)] ?? { text: 'done.' };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const vendor = VENDORS.find((v) => v.owns(req.method ?? '', req.url ?? ''));
    const turn = vendor !== undefined && body !== null && vendor.isTurn(req.url ?? '', body);
    const step = turn ? pick(vendor, body) : undefined;
    appendFileSync(
      log,
      JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        vendor: vendor?.id ?? null,
        turn: turn ? ++turns : null,
        step: step ?? null,
        body: body ?? raw,
      }) + '\n',
    );
    if (!vendor) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `model-api: no vendor serves ${req.method} ${req.url}` } }));
      return;
    }
    if (!step) return vendor.side(req.url ?? '', body, res);
    if (step.error) {
      res.writeHead(step.error.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(step.error.body ?? { error: { message: `scripted ${step.error.status}` } }));
      return;
    }
    vendor.stream(req.url ?? '', body, step, turns, res);
  });
});
server.listen(Number(port), host, () => process.stdout.write('listening\n'));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.close(() => process.exit(0)));
