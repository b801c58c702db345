/**
 * Path globs (spec D271): picomatch's rules, its only import point. The POSIX build, so no
 * platform is guessed from `process` or `navigator`: paths here are always '/'-separated.
 * Dot files are ordinary names (`*` matches `.env`), and neither extglobs (`+(a|b)`) nor a
 * leading `!` mean anything, so a glob says only which paths it matches.
 */
import picomatch from 'picomatch/posix';

const OPTIONS: picomatch.PicomatchOptions = { dot: true, noextglob: true, nonegate: true };

/**
 * A workspace-relative path matches a glob: `**` any number of folders, `*` within one
 * name, `?` one character, `[abc]` one of those, `{a,b}` either. A glob without a slash
 * matches the name in any folder (as git does); a leading `/` anchors it at the top; a
 * folder glob (`src`, `src/`) also covers everything below it.
 */
export function globMatch(glob: string, path: string): boolean {
  const g = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  const anchored = g.includes('/') ? g.replace(/^\//, '') : `**/${g}`;
  return picomatch([anchored, `${anchored}/**`], OPTIONS)(path);
}
