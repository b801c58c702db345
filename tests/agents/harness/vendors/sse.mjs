/** Server-sent events, as each vendor streams them. */
export function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return {
    /** One event; `event` is the SSE event name (omitted for data-only streams). */
    send(data, event) {
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    /** Drop the connection mid-stream (a `cut` step). */
    cut() {
      res.socket?.destroy();
    },
    end() {
      res.end();
    },
  };
}

/** A JSON answer. */
export function json(res, value, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
