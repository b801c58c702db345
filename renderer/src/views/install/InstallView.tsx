import type { ProjectRef } from '../../../../shared/ipc';
import { InstallFlow } from './InstallFlow';
import { RemoveFlow } from './RemoveFlow';
import { UpdateFlow } from './UpdateFlow';
import './install.css';
import './review-summary.css';
import './review-standing.css';
import './review-details.css';

/** The Install tab: `#/install`, `#/install/update:<dir>`, `#/install/remove:<dir>`. */
export function InstallView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const m = /^(update|remove):([a-z0-9][a-z0-9-]*)$/.exec(arg ?? '');
  return (
    <main className="page inst-view">
      <h1>{m?.[1] === 'update' ? `Update ${m[2]}` : m?.[1] === 'remove' ? `Remove ${m[2]}` : 'Install a skill'}</h1>
      {m?.[1] === 'update' ? (
        <UpdateFlow key={m[2]} project={project} dir={m[2]!} />
      ) : m?.[1] === 'remove' ? (
        <RemoveFlow key={m[2]} project={project} dir={m[2]!} />
      ) : (
        <InstallFlow project={project} />
      )}
    </main>
  );
}
