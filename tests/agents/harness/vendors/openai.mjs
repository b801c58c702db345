/**
 * OpenAI Responses (`POST /v1/responses`, streamed as SSE), as Codex speaks it through a
 * `[model_providers.<id>]` table with wire_api = "responses". Every Responses request
 * Codex 0.171.0 sends under `codex exec` is a turn of the main loop (it sent no title or
 * summary requests in the suites' runs); `/v1/responses/compact` and `/v1/models`, which
 * it may call, are side requests.
 */
import { json, sse } from './sse.mjs';

const path = (url) => url.split('?')[0];

export const openai = {
  id: 'openai',
  owns: (method, url) => url.startsWith('/v1/responses') || url.startsWith('/v1/models'),
  /** The model turns the conversation already holds: its function calls and assistant messages. */
  turnIndex: (body) =>
    (body.input ?? []).filter((x) => x?.type === 'function_call' || (x?.type === 'message' && x.role === 'assistant'))
      .length,
  /** The text the agent put before the model: instructions and every message's text. */
  texts(body) {
    const out = typeof body.instructions === 'string' ? [body.instructions] : [];
    for (const x of body.input ?? []) {
      if (typeof x?.content === 'string') out.push(x.content);
      else if (Array.isArray(x?.content)) for (const c of x.content) if (typeof c?.text === 'string') out.push(c.text);
    }
    return out;
  },
  isTurn: (url, body) => path(url) === '/v1/responses' && Array.isArray(body.input),
  side(url, body, res) {
    // An empty list: Codex keeps its bundled model metadata rather than a scripted one.
    if (path(url).startsWith('/v1/models')) return json(res, { object: 'list', data: [] });
    if (path(url) === '/v1/responses/compact') return json(res, { output: [] });
    if (body === null) return json(res, {});
    return stream(body, { text: 'ok' }, 0, res);
  },
  stream: (url, body, step, n, res) => stream(body, step, n, res),
};

/** The output item a step becomes: a function call of Codex's tool, or an assistant message. */
function itemOf(step, n) {
  if (step.tool)
    return {
      type: 'function_call',
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: step.tool,
      arguments: JSON.stringify(step.input ?? {}),
      status: 'completed',
    };
  return {
    type: 'message',
    id: `msg_${n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: step.text ?? '', annotations: [] }],
  };
}

function stream(body, step, n, res) {
  const s = sse(res);
  const ev = (type, data) => s.send({ type, ...data }, type);
  const response = { id: `resp_${n}`, object: 'response', model: body.model ?? 'scripted', status: 'in_progress' };
  ev('response.created', { response: { ...response, output: [] } });
  if (step.cut) {
    const partial = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'in_progress', content: [] };
    ev('response.output_item.added', { output_index: 0, item: partial });
    ev('response.output_text.delta', { output_index: 0, content_index: 0, item_id: partial.id, delta: 'I will now' });
    return s.cut();
  }
  const item = itemOf(step, n);
  ev('response.output_item.added', { output_index: 0, item });
  if (item.type === 'message')
    ev('response.output_text.delta', { output_index: 0, content_index: 0, item_id: item.id, delta: step.text ?? '' });
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', {
    response: {
      ...response,
      status: 'completed',
      output: [item],
      usage: {
        input_tokens: 1000 + n,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10 + n,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1010 + 2 * n,
      },
    },
  });
  s.end();
}
