import { navigate } from '../../route';
import { ErrorLine } from './ErrorLine';

/** Why a review could not start; for a skill that is already installed, the ways on from there. */
export function BeginError({ error, onDismiss }: { error: Error; onDismiss: () => void }) {
  const installedAlready = /^install: ([a-z0-9][a-z0-9-]*) is already installed/.exec(error.message)?.[1];
  return (
    <>
      <ErrorLine error={error} origin="install.begin" onDismiss={onDismiss} />
      {installedAlready && (
        <div className="inst-actions">
          <button
            type="button"
            className="btn"
            onClick={() => navigate({ view: 'install', arg: `update:${installedAlready}` })}
          >
            Check {installedAlready} for an update…
          </button>
          <button
            type="button"
            className="btn ghost"
            onClick={() => navigate({ view: 'install', arg: `remove:${installedAlready}` })}
          >
            Remove {installedAlready}…
          </button>
        </div>
      )}
    </>
  );
}
