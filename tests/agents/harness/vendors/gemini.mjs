/**
 * The Gemini API (`/v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent`,
 * `:countTokens`), as Gemini CLI speaks it with GOOGLE_GEMINI_BASE_URL and an API key.
 *
 * A turn is a generate request that offers the agent loop's function declarations. Gemini
 * CLI's side requests carry none: its next-speaker check and model router ask for JSON
 * against a response schema, answered with the schema's first choices (next_speaker "user",
 * so the CLI stops when the script says so; the router's first model); anything else gets
 * a short text.
 */
import { json, sse } from './sse.mjs';

const GENERATE = /^\/v1beta\/models\/[^/:?]+:(streamGenerateContent|generateContent)(?:\?|$)/;

const declarations = (body) =>
  Array.isArray(body?.tools)
    ? body.tools.flatMap((t) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []))
    : [];

export const gemini = {
  id: 'gemini',
  owns: (method, url) => url.startsWith('/v1beta/models/'),
  /** The model turns the conversation already holds. */
  turnIndex: (body) => (body.contents ?? []).filter((c) => c?.role === 'model').length,
  /** The text the agent put before the model: the system instruction and every text part. */
  texts(body) {
    const out = [];
    const push = (parts) => {
      for (const p of Array.isArray(parts) ? parts : []) if (typeof p?.text === 'string') out.push(p.text);
    };
    if (typeof body.systemInstruction === 'string') out.push(body.systemInstruction);
    else push(body.systemInstruction?.parts);
    for (const c of body.contents ?? []) push(c?.parts);
    return out;
  },
  isTurn: (url, body) => GENERATE.test(url) && declarations(body).length > 0,
  side(url, body, res) {
    if (/:countTokens(?:\?|$)/.test(url)) return json(res, { totalTokens: 100 });
    const m = GENERATE.exec(url);
    if (!m || body === null) return json(res, {});
    const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
    const text = schema ? JSON.stringify(sample(schema)) : 'ok';
    return answer(m[1] === 'streamGenerateContent', res, [{ text }], 0);
  },
  stream(url, body, step, n, res) {
    const streamed = GENERATE.exec(url)?.[1] === 'streamGenerateContent';
    if (step.cut) {
      const s = sse(res);
      s.send(chunk([{ text: 'I will now' }], undefined, n));
      return s.cut();
    }
    const parts = step.tool
      ? [{ functionCall: { id: `call_${n}`, name: step.tool, args: step.input ?? {} } }]
      : [{ text: step.text ?? '' }];
    return answer(streamed, res, parts, n);
  },
};

function chunk(parts, finishReason, n) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata: { promptTokenCount: 1000 + n, candidatesTokenCount: 10 + n, totalTokenCount: 1010 + 2 * n },
    modelVersion: 'scripted',
  };
}

function answer(streamed, res, parts, n) {
  if (!streamed) return json(res, chunk(parts, 'STOP', n));
  const s = sse(res);
  s.send(chunk(parts, 'STOP', n));
  s.end();
}

/** A value the JSON schema accepts: the first enum choice, a placeholder string, 1, required fields only. */
function sample(schema) {
  const type = String(schema?.type ?? '').toLowerCase();
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
  if (type === 'object') {
    const props = schema.properties ?? {};
    const keys = Array.isArray(schema.required) ? schema.required : Object.keys(props);
    return Object.fromEntries(keys.map((k) => [k, sample(props[k] ?? {})]));
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  // The router's complexity_score is checked against 1..100 though its schema says so only in words.
  if (type === 'number' || type === 'integer') return schema.minimum ?? 1;
  return 'scripted';
}
