/** OpenAI Responses (`POST /v1/responses`), as Codex speaks it. Filled in by the Codex suite. */
export const openai = {
  id: 'openai',
  owns: (method, url) => url.startsWith('/v1/responses'),
  isTurn: () => false,
  side(url, body, res) {
    res.writeHead(501, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'model-api: the Responses stand-in is not written yet' } }));
  },
  stream() {},
};
