/**
 * The window's localStorage, or null where it cannot be had (a sandboxed frame, storage
 * disabled): what the views keep per project — drafts, the last open file, the targets shown
 * — is a convenience, so its absence only loses the memory.
 */
export function localStore(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
