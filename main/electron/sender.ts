import type { IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { isAppUrl } from './secure';

/** The parts of an IPC event the sender check looks at (a fake in tests). */
export interface SenderEvent {
  readonly sender: Pick<WebContents, 'id'> & { readonly mainFrame?: unknown };
  readonly senderFrame: Pick<WebFrameMain, 'url'> | null;
}

/**
 * Accept an IPC message only from the top frame of one of our windows, showing a page of
 * the app's own origin. A frame that navigated away, an iframe, a destroyed frame, or a
 * webContents we did not create is refused.
 */
export function isTrustedSender(
  event: SenderEvent | IpcMainInvokeEvent,
  trustedWebContents: ReadonlySet<number>,
): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (!trustedWebContents.has(event.sender.id)) return false;
  if (event.sender.mainFrame !== undefined && event.sender.mainFrame !== frame) return false;
  return isAppUrl(frame.url);
}
