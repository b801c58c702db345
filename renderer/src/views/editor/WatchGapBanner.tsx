import { useWatchGap } from '../../queries';

/**
 * The editor's word on a skill folder the project's watch misses (over the system's watch
 * limit, say): an edit made there by another program is not pushed to this page, so the
 * page says so, and what still protects the files.
 */
export function WatchGapBanner({ root, path }: { root: string; path: string }) {
  const gap = useWatchGap(root, path).data;
  if (!gap) return null;
  return (
    <div className="ed-banner warn" role="status" data-testid="editor-watch-gap">
      <span>
        <strong>Changes on disk may not show here as they happen.</strong> This skill&apos;s files are read again
        whenever you come back to this window, and a save never overwrites a file that changed on disk.
        <span className="banner-detail">{gap}</span>
      </span>
    </div>
  );
}
