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
