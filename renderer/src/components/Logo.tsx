import './app-shell.css';

/** The Skillsmith mark: an anvil-ish hexagon with a spark, drawn inline (no network, no asset). */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <defs>
        <linearGradient id="lg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--accent)" />
          <stop offset="1" stopColor="var(--accent-2)" />
        </linearGradient>
      </defs>
      <path d="M16 2 28 9v14l-12 7L4 23V9z" fill="url(#lg)" />
      <path d="M10 19h12l-2 3h-8zM12 13h8v5h-8z" fill="var(--on-accent)" opacity="0.92" />
      <path d="M21 6l1.2 2.6L25 9.5l-2.4 1.4L22 14l-1.2-2.6L18 10.5l2.6-1.1z" fill="var(--on-accent)" />
    </svg>
  );
}

/** The mark and the name, as every top bar starts. */
export function Brand() {
  return (
    <div className="app-brand">
      <Logo />
      <span className="app-brand-name">Skillsmith</span>
    </div>
  );
}
