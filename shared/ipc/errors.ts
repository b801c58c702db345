import type { Result } from '../result';

/**
 * The contract's error vocabulary, free of zod so the renderer can use it without
 * bundling the schemas. Each is also an error code of shared/result.ts (the Envelope's
 * Result type will not compile otherwise), whose table says which code a failure crosses
 * the transport as.
 */
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

export interface IpcErrorData {
  readonly code: IpcErrorCode;
  readonly message: string;
}

/** What crosses a transport for every call: a value or a typed error, never a thrown exception. */
export type Envelope<T> = Result<T, IpcErrorData>;

/** Thrown by the renderer-side client when a call comes back as an error. */
export class IpcError extends Error {
  readonly code: IpcErrorCode;
  constructor(data: IpcErrorData) {
    super(data.message);
    this.name = 'IpcError';
    this.code = data.code;
  }
}

/** Open an envelope: the value, or a thrown IpcError. A malformed envelope is an error too. */
export function unwrap<T>(raw: unknown): T {
  if (typeof raw === 'object' && raw !== null) {
    const env = raw as { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
    if (env.ok === true && 'value' in env) return env.value as T;
    if (
      env.ok === false &&
      typeof env.error?.message === 'string' &&
      (IPC_ERROR_CODES as readonly unknown[]).includes(env.error.code)
    ) {
      throw new IpcError({ code: env.error.code as IpcErrorCode, message: env.error.message });
    }
  }
  throw new IpcError({
    code: 'invalid-response',
    message: 'the transport returned something that is not an IPC envelope',
  });
}
