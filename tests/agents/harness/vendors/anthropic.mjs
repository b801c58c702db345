/**
 * Anthropic Messages (`POST /v1/messages`, streamed as SSE), as Claude Code speaks it with
 * ANTHROPIC_BASE_URL. A turn is a request that offers tools: Claude Code's side requests
 * (titles, quota checks) carry none.
 */
import { json, sse } from './sse.mjs';

export const anthropic = {
  id: 'anthropic',
  owns: (method, url) => url.startsWith('/v1/messages') || (method === 'HEAD' && url === '/'),
  isTurn: (url, body) =>
    url.startsWith('/v1/messages?') || url === '/v1/messages'
      ? Array.isArray(body.tools) && body.tools.length > 0
      : false,
  side(url, body, res) {
    if (url.startsWith('/v1/messages/count_tokens')) return json(res, { input_tokens: 100 });
    if (body === null) return json(res, {});
    return stream(body, { text: 'ok' }, 0, res);
  },
  stream: (url, body, step, n, res) => stream(body, step, n, res),
  /** The model turns the conversation already holds. */
  turnIndex: (body) => (body.messages ?? []).filter((m) => m.role === 'assistant').length,
  /** The text the agent put before the model: system blocks and message text. */
  texts(body) {
    const out = [];
    const push = (c) => {
      if (typeof c === 'string') out.push(c);
      else if (Array.isArray(c)) for (const p of c) if (p && typeof p.text === 'string') out.push(p.text);
    };
    push(body.system);
    for (const m of body.messages ?? []) push(m.content);
    return out;
  },
};

function stream(body, step, n, res) {
  const s = sse(res);
  const ev = (type, data) => s.send({ type, ...data }, type);
  ev('message_start', {
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'scripted',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 1000 + n, output_tokens: 1 },
    },
  });
  if (step.cut) {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'I will now' } });
    return s.cut();
  }
  if (step.tool) {
    ev('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${n}`, name: step.tool, input: {} },
    });
    ev('content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input ?? {}) },
    });
  } else {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text ?? '' } });
  }
  ev('content_block_stop', { index: 0 });
  ev('message_delta', {
    delta: { stop_reason: step.tool ? 'tool_use' : 'end_turn' },
    usage: { output_tokens: 10 + n },
  });
  ev('message_stop', {});
  s.end();
}
