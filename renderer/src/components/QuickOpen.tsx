import { useRef, useState } from 'react';
import { useDashboard } from '../queries';
import { navigate } from '../route';
import { Dialog } from './Dialog';
import './app-shell.css';

/** Ctrl+P (Alt+Shift+P in a browser): type part of a skill's name, Enter opens it in the editor. */
export function QuickOpen({ root, onClose }: { root: string; onClose: () => void }) {
  const dash = useDashboard(root);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const q = query.trim().toLowerCase();
  const matches = (dash.data?.skills ?? [])
    .filter((s) => !q || s.name.toLowerCase().includes(q) || s.dir.includes(q))
    .slice(0, 50);
  const at = Math.min(index, Math.max(0, matches.length - 1));
  const open = (dir: string) => {
    onClose();
    navigate({ view: 'editor', arg: dir });
  };
  return (
    <Dialog
      onClose={onClose}
      className="app-quick-open"
      backdropClassName="app-quick-open-backdrop"
      label="Open a skill"
      initialFocus={input}
    >
      <input
        ref={input}
        className="filter"
        role="combobox"
        aria-expanded="true"
        aria-controls="quick-open-list"
        aria-activedescendant={matches[at] ? `qo-${matches[at].dir}` : undefined}
        aria-label="Skill name"
        placeholder="Open a skill in the editor…"
        value={query}
        spellCheck={false}
        onChange={(e) => {
          setQuery(e.target.value);
          setIndex(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, matches.length - 1));
          else if (e.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
          else if (e.key === 'Enter' && matches[at]) open(matches[at].dir);
          else return;
          e.preventDefault();
        }}
      />
      <ul id="quick-open-list" role="listbox" className="app-quick-open-list" aria-label="Skills">
        {matches.map((s, i) => (
          <li
            key={s.dir}
            id={`qo-${s.dir}`}
            role="option"
            aria-selected={i === at}
            className={i === at ? 'on' : ''}
            onMouseDown={(e) => (e.preventDefault(), open(s.dir))}
          >
            <span>{s.name}</span>
            <span className="muted small">{s.description}</span>
          </li>
        ))}
        {dash.data && matches.length === 0 && <li className="muted">No skill matches “{query}”.</li>}
      </ul>
    </Dialog>
  );
}
