import type { IpcErrorCode } from '../../shared/ipc/errors';

/** A handler's refusal with a contract error code; anything else thrown becomes `internal`. */
export class HandlerError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HandlerError';
  }
}
