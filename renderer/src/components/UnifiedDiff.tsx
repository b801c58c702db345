/** How a line of a unified diff is shown: added, deleted, a hunk header, or context. */
export function diffLineClass(line: string): string {
  if (line.startsWith('+') && !line.startsWith('+++')) return 'diff-add';
  if (line.startsWith('-') && !line.startsWith('---')) return 'diff-del';
  return line.startsWith('@@') ? 'diff-hunk' : '';
}

/** A unified diff as preformatted text, each line classed by `diffLineClass` (the caller's CSS colours them). */
export function UnifiedDiff({ diff, className, label }: { diff: string; className: string; label?: string }) {
  return (
    <pre className={className} aria-label={label}>
      {diff.split('\n').map((line, i) => (
        <span key={i} className={diffLineClass(line)}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
