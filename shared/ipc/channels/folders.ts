import { z } from 'zod';
import { channel } from '../define';
import { AbsolutePath } from '../schemas';

/**
 * The folder browser of the browser mode's project picker (a browser page cannot show
 * the OS dialog, and the File System Access API gives a handle, not a path the server
 * can open). Main lists folders only, and only inside the user's home folder.
 */
export const FolderEntry = z.object({
  name: z.string(),
  path: z.string(),
  /** Has a kitbash.toml or a .kitbash folder: opening it opens a project. */
  project: z.boolean(),
});
export type FolderEntry = z.infer<typeof FolderEntry>;

export const FolderListing = z.object({
  path: z.string(),
  /** The folder above, or null at the home folder (the top of what can be browsed). */
  parent: z.string().nullable(),
  project: z.boolean(),
  folders: z.array(FolderEntry),
  /** More sub-folders than are listed. */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListing>;

export const foldersChannels = {
  list: channel(
    "the sub-folders of a folder inside the user's home (the home folder when no path is given); hidden folders left out",
    z.object({ path: AbsolutePath.optional() }).strict(),
    FolderListing,
  ),
} as const;
