import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { listChannels } from '../../shared/ipc/contract';
import { EVENT_CHANNEL } from '../../shared/ipc/define';
import type { Envelope } from '../../shared/ipc/errors';
import { dispatch } from '../ipc/dispatch';
import type { Session } from '../ipc/session';
import { isTrustedSender } from './sender';

export { EVENT_CHANNEL };

export interface IpcRegistry {
  /** webContents ids of our own windows. */
  readonly trusted: ReadonlySet<number>;
  /** The session of the window that owns this webContents, or undefined. */
  sessionFor(webContentsId: number): Session | undefined;
}

/** The handler for one channel: sender check, then the shared dispatch (schema, handler, response schema). */
export function ipcHandler(channel: string, registry: IpcRegistry) {
  return async (
    event: IpcMainInvokeEvent | Parameters<typeof isTrustedSender>[0],
    payload: unknown,
  ): Promise<Envelope<unknown>> => {
    if (!isTrustedSender(event, registry.trusted)) {
      return {
        ok: false,
        error: {
          code: 'forbidden',
          message: `${channel}: refused — the message did not come from a Skillsmith window`,
        },
      };
    }
    const session = registry.sessionFor(event.sender.id);
    if (!session)
      return { ok: false, error: { code: 'forbidden', message: `${channel}: refused — no session for this window` } };
    return dispatch(channel, payload, { session });
  };
}

/** Register every contract channel on ipcMain. Returns the channel names registered. */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle'>, registry: IpcRegistry): string[] {
  const names: string[] = [];
  for (const { name } of listChannels()) {
    ipcMain.handle(name, ipcHandler(name, registry));
    names.push(name);
  }
  return names;
}
