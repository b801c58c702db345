/**
 * What happens to an open buffer when its file changed on disk. Pure: the session applies it.
 *
 * - `same`: the disk moved to exactly the buffer — it becomes the new base, nothing is dirty;
 * - `reload`: no edits of the author's own — the buffer takes the disk text;
 * - `conflict`: both changed — nothing is overwritten until the author chooses.
 */
export type Reconcile = 'unchanged' | 'same' | 'reload' | 'conflict';

export function reconcile(
  buffer: {
    readonly text: string;
    readonly baseVersion: string | null;
    readonly dirty: boolean;
    readonly conflicted: boolean;
  },
  disk: { readonly text: string; readonly version: string | null },
): Reconcile {
  if (disk.version === buffer.baseVersion) return 'unchanged';
  if (buffer.text === disk.text) return 'same';
  if (!buffer.dirty && !buffer.conflicted) return 'reload';
  return 'conflict';
}
