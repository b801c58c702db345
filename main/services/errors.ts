import type { IpcErrorCode } from '../../shared/ipc/errors';

/**
 * A service's refusal that names its contract error code, so services the desktop calls
 * need not import the IPC layer; dispatch reports it exactly like a handler's own refusal.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
