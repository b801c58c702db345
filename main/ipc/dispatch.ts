import { lookupChannel } from '../../shared/ipc/contract';
import type { Envelope, IpcErrorData } from '../../shared/ipc/errors';
import { CodedError, ERROR_CODES } from '../../shared/result';
import { HANDLERS, type HandlerContext, type HandlerTable } from './table';

type AnyHandler = (request: unknown, ctx: HandlerContext) => unknown;

/**
 * Run one call from an untrusted renderer: known channel → request validated against its
 * schema → handler → response validated against its schema. Never throws; every failure
 * is a typed error envelope with a one-line message.
 */
export async function dispatch(
  channelName: string,
  payload: unknown,
  ctx: HandlerContext,
  table: HandlerTable = HANDLERS,
): Promise<Envelope<unknown>> {
  const channel = lookupChannel(channelName);
  if (!channel)
    return fail({ code: 'unknown-channel', message: `unknown channel: ${String(channelName).slice(0, 80)}` });
  const parsed = channel.def.request.safeParse(payload);
  if (!parsed.success)
    return fail({ code: 'invalid-request', message: `${channel.name}: ${describeIssues(parsed.error.issues)}` });
  const handler = (table[channel.area] as Record<string, AnyHandler>)[channel.method];
  if (!handler) return fail({ code: 'internal', message: `${channel.name}: no handler` });
  let value: unknown;
  try {
    value = await handler(parsed.data, ctx);
  } catch (e) {
    if (e instanceof CodedError) return fail({ code: ERROR_CODES[e.code].ipc, message: e.message });
    return fail({ code: 'internal', message: `${channel.name}: ${e instanceof Error ? e.message : String(e)}` });
  }
  const out = channel.def.response.safeParse(value);
  if (!out.success)
    return fail({
      code: 'invalid-response',
      message: `${channel.name}: the handler's answer broke the contract (${describeIssues(out.error.issues)})`,
    });
  return { ok: true, value: out.data };
}

function fail(error: IpcErrorData): Envelope<never> {
  return { ok: false, error };
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'invalid';
  const where = first.path.length ? first.path.map(String).join('.') + ': ' : '';
  return `${where}${first.message}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}`;
}
