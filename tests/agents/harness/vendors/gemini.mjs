/** Gemini generateContent, as Gemini CLI speaks it. Filled in by the Gemini suite. */
export const gemini = {
  id: 'gemini',
  owns: (method, url) => url.startsWith('/v1beta/models/'),
  isTurn: () => false,
  side(url, body, res) {
    res.writeHead(501, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'model-api: the Gemini stand-in is not written yet' } }));
  },
  stream() {},
};
