import type { ReactNode } from 'react';
import type { ProjectRef } from '../../../shared/ipc';
import { DashboardView } from '../components/Dashboard';
import { PlaygroundView } from './playground/PlaygroundView';
import { RunsView } from './runs/RunsView';
import { EvalsView } from './evals/EvalsView';
import { EditorRoute } from './editor';
import { InstallView } from './install/InstallView';
import { PreviewsView } from './previews/PreviewsView';
import { MatrixView } from './matrix/MatrixView';
import { CostsView } from './costs/CostsView';
import { SettingsView } from './settings/SettingsView';

export interface ViewProps {
  readonly project: ProjectRef;
  /** The route's argument, e.g. the skill folder name for `#/editor/<dir>`. */
  readonly arg?: string;
}

/**
 * The screens of an open project, in tab order. To add one, write its component in its
 * own folder under views/ and list it here; the tab bar and the router pick it up.
 */
export interface ProjectView {
  readonly id: string;
  readonly label: string;
  render(props: ViewProps): ReactNode;
}

export const PROJECT_VIEWS: readonly ProjectView[] = [
  { id: 'dashboard', label: 'Dashboard', render: ({ project }) => <DashboardView project={project} /> },
  { id: 'editor', label: 'Editor', render: (props) => <EditorRoute {...props} /> },
  {
    id: 'install',
    label: 'Install',
    render: ({ project, arg }) => <InstallView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'previews',
    label: 'Previews',
    render: ({ project, arg }) => <PreviewsView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'matrix',
    label: 'Matrix',
    render: ({ project, arg }) => <MatrixView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'costs',
    label: 'Costs',
    render: ({ project, arg }) => <CostsView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'playground',
    label: 'Playground',
    render: ({ project, arg }) => <PlaygroundView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'runs',
    label: 'Runs',
    render: ({ project, arg }) => <RunsView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  {
    id: 'evals',
    label: 'Evals',
    render: ({ project, arg }) => <EvalsView project={project} {...(arg !== undefined ? { arg } : {})} />,
  },
  { id: 'settings', label: 'Settings', render: ({ project }) => <SettingsView project={project} /> },
];

export function findView(id: string): ProjectView {
  return PROJECT_VIEWS.find((v) => v.id === id) ?? PROJECT_VIEWS[0]!;
}
