import { lazy, type ReactNode } from 'react';
import type { ProjectRef } from '../../../shared/ipc';
import { DashboardView } from '../components/Dashboard';
import { EditorRoute } from './editor';

// The dashboard is what a launch shows first; every other screen is its own chunk, fetched
// and evaluated the first time its tab opens, so the page's first script stays small.
const InstallView = lazy(() => import('./install/InstallView').then((m) => ({ default: m.InstallView })));
const PreviewsView = lazy(() => import('./previews/PreviewsView').then((m) => ({ default: m.PreviewsView })));
const MatrixView = lazy(() => import('./matrix/MatrixView').then((m) => ({ default: m.MatrixView })));
const CostsView = lazy(() => import('./costs/CostsView').then((m) => ({ default: m.CostsView })));
const PlaygroundView = lazy(() => import('./playground/PlaygroundView').then((m) => ({ default: m.PlaygroundView })));
const RunsView = lazy(() => import('./runs/RunsView').then((m) => ({ default: m.RunsView })));
const EvalsView = lazy(() => import('./evals/EvalsView').then((m) => ({ default: m.EvalsView })));
const SettingsView = lazy(() => import('./settings/SettingsView').then((m) => ({ default: m.SettingsView })));

export interface ViewProps {
  readonly project: ProjectRef;
  /** The route's argument, e.g. the skill folder name for `#/editor/<dir>`. */
  readonly arg?: string;
}

/**
 * The screens of an open project, in tab order. To add one, write its component in its
 * own folder under views/ and list it here (lazily, like the others); the tab bar and the
 * router pick it up, and the shell shows a loading line while its chunk arrives.
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
