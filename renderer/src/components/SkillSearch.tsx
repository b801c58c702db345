import { useMemo, useState } from 'react';

/** The search box over a list of skills (shown once the list is long enough to need one). */
export function SkillSearch({
  query,
  onQuery,
  className,
}: {
  query: string;
  onQuery: (q: string) => void;
  className?: string;
}) {
  return (
    <input
      className={className ? `filter ${className}` : 'filter'}
      type="search"
      placeholder="Search skills"
      aria-label="Search skills"
      value={query}
      onChange={(e) => onQuery(e.target.value)}
      spellCheck={false}
    />
  );
}

/**
 * The state of a search over a list of skills: the query as typed, and the items one of
 * whose `fields` contains it, ignoring case. `fields` should be a module-level function:
 * the filter is kept until the items or the query change.
 */
export function useSkillSearch<T>(items: readonly T[] | undefined, fields: (item: T) => readonly (string | null)[]) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = useMemo(
    () => (items ?? []).filter((s) => !q || fields(s).some((f) => f !== null && f.toLowerCase().includes(q))),
    [items, q, fields],
  );
  return { query, setQuery, shown };
}
