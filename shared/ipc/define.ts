import { z } from 'zod';

/**
 * The building blocks of the IPC contract. A channel is a request schema, a response
 * schema and a one-line summary; an event stream is a payload schema and a summary.
 * Everything else — the `Api` type, the preload's methods, the web bridge, the handler
 * table's shape and the validation in main — is derived from these definitions.
 */
export interface ChannelDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly kind: 'channel';
  readonly summary: string;
  readonly request: Req;
  readonly response: Res;
}

export interface EventDef<P extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly summary: string;
  readonly payload: P;
}

export function channel<Req extends z.ZodType, Res extends z.ZodType>(
  summary: string,
  request: Req,
  response: Res,
): ChannelDef<Req, Res> {
  return { kind: 'channel', summary, request, response };
}

export function eventStream<P extends z.ZodType>(summary: string, payload: P): EventDef<P> {
  return { kind: 'event', summary, payload };
}

/** A request that carries nothing. */
export const Empty = z.object({}).strict();

/** The one Electron IPC channel main → renderer events travel on; the preload fans them out by name. */
export const EVENT_CHANNEL = 'skillsmith:event';
