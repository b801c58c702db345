/** Placeholder shell until the desktop-app issue lands the dashboard. */
export function App({ workspace }: { workspace: string | null }) {
  return (
    <main className="placeholder">
      <h1>Skillsmith</h1>
      <p>Author, check, compile and install coding-agent skills.</p>
      <p className="workspace">
        Workspace: <code>{workspace ?? 'none opened'}</code>
      </p>
      <p className="hint">
        The engine is available today from the command line: <code>npx skillsmith lint</code>
      </p>
    </main>
  );
}
