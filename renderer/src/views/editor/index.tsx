import { lazy, Suspense } from 'react';
import type { ViewProps } from '../registry';
import { EditorLoading } from './EditorLoading';

// Monaco is large: the editor is its own chunk, fetched the first time the tab opens.
const EditorView = lazy(() => import('./EditorView').then((m) => ({ default: m.EditorView })));

export function EditorRoute({ project, arg }: ViewProps) {
  return (
    <Suspense fallback={<EditorLoading />}>
      <EditorView project={project} {...(arg !== undefined ? { arg } : {})} />
    </Suspense>
  );
}
