import { useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

/**
 * A long list (1,000 skills) that keeps only the rows in view, and a few around them, in
 * the DOM: opening, filtering and scrolling cost the rows shown, not the rows there are.
 * Rows are measured as they render, so they may wrap to different heights.
 */
export function VirtualList<T>({
  items,
  keyOf,
  estimate,
  maxHeight,
  className,
  label,
  children,
}: {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** Expected row height in px (before a row is measured). */
  estimate: number;
  /** Height of the scrolling box once the rows are taller (any CSS length). */
  maxHeight: string;
  /** Class of the list element. */
  className?: string;
  label: string;
  children: (item: T) => ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    getItemKey: (i) => keyOf(items[i]!),
    overscan: 8,
  });
  return (
    <div ref={scroller} style={{ maxHeight, overflowY: 'auto' }}>
      <ul className={className} aria-label={label} style={{ position: 'relative', height: v.getTotalSize() }}>
        {v.getVirtualItems().map((row) => (
          <li
            key={row.key}
            data-index={row.index}
            ref={v.measureElement}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
          >
            {children(items[row.index]!)}
          </li>
        ))}
      </ul>
    </div>
  );
}
