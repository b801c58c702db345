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

export function channel<Req extends z.ZodType, Res extends z.ZodType>(summary: string, request: Req, response: Res): ChannelDef<Req, Res> {
  return { kind: 'channel', summary, request, response };
}

export function eventStream<P extends z.ZodType>(summary: string, payload: P): EventDef<P> {
  return { kind: 'event', summary, payload };
}

/** A request that carries nothing. */
export const Empty = z.object({}).strict();

/** Why a call failed. The renderer switches on `code`; `message` is one line for people. */
export const IPC_ERROR_CODES = [
  'invalid-request',
  'invalid-response',
  'unknown-channel',
  'forbidden',
  'no-project',
  'not-found',
  'outside-project',
  'unsupported',
  'internal',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export const IpcErrorShape = z.object({
  code: z.enum(IPC_ERROR_CODES),
  message: z.string(),
});
export type IpcErrorData = z.infer<typeof IpcErrorShape>;

/** What crosses a transport for every call: a value or a typed error, never a thrown exception. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcErrorData };

export const EnvelopeShape = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: IpcErrorShape }),
]);

/** Thrown by the renderer-side client when a call comes back as an error. */
export class IpcError extends Error {
  readonly code: IpcErrorCode;
  constructor(data: IpcErrorData) {
    super(data.message);
    this.name = 'IpcError';
    this.code = data.code;
  }
}

/** The one Electron IPC channel main → renderer events travel on; the preload fans them out by name. */
export const EVENT_CHANNEL = 'skillsmith:event';
