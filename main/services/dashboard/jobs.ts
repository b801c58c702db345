import type { Dashboard } from '../../../shared/ipc/channels/project';
import type { LivePreview, PreviewRequest } from '../../../shared/ipc/channels/compile';
import type { CostsReport, Explanation, MatrixReport } from '../../../shared/ipc/channels/reports';
import { previewOf } from '../previews';
import { storeDashboard, storeKeptReport } from './cache';
import { costsOf, explainOf, loadProject, matrixOf, type LoadedProject } from './report';
import { scanProject } from './scan';

/**
 * What the dashboard's threads answer: the scan, the reports of the Costs and Matrix views,
 * and the editor's live previews. `generation` names the state of the project's files (the hub counts its changes),
 * so the reports of one state share one load of the skills.
 */
export type Job =
  /** `cacheFile`: where to keep the result for the next launch's first paint. */
  | { readonly kind: 'scan'; readonly root: string; readonly cacheFile?: string }
  /** `cacheFile`: where to keep the report for the next launch's first paint of its view. */
  | { readonly kind: 'costs'; readonly root: string; readonly generation: number; readonly cacheFile?: string }
  | { readonly kind: 'matrix'; readonly root: string; readonly generation: number; readonly cacheFile?: string }
  | {
      readonly kind: 'explain';
      readonly root: string;
      readonly generation: number;
      readonly skill: string;
      readonly target: string;
    }
  | { readonly kind: 'preview'; readonly root: string; readonly generation: number; readonly request: PreviewRequest };

export interface JobResults {
  scan: Dashboard;
  costs: CostsReport;
  matrix: MatrixReport;
  explain: Explanation | null;
  preview: LivePreview;
}

export type ResultOf<J extends Job> = JobResults[J['kind']];

let loaded: { root: string; generation: number; project: LoadedProject } | undefined;

function project(root: string, generation: number): LoadedProject {
  if (loaded?.root !== root || loaded.generation !== generation)
    loaded = { root, generation, project: loadProject(root) };
  return loaded.project;
}

export function runJob<J extends Job>(job: J): ResultOf<J>;
export function runJob(job: Job): JobResults[Job['kind']] {
  switch (job.kind) {
    case 'scan': {
      const d = scanProject(job.root);
      if (job.cacheFile) keep(() => storeDashboard(job.cacheFile!, d));
      return d;
    }
    case 'costs': {
      const r = costsOf(project(job.root, job.generation));
      if (job.cacheFile) keep(() => storeKeptReport(job.cacheFile!, job.root, r));
      return r;
    }
    case 'matrix': {
      const r = matrixOf(project(job.root, job.generation));
      if (job.cacheFile) keep(() => storeKeptReport(job.cacheFile!, job.root, r));
      return r;
    }
    case 'explain':
      return explainOf(project(job.root, job.generation), job.skill, job.target);
    case 'preview':
      return previewOf(job.root, project(job.root, job.generation), job.request);
  }
}

function keep(store: () => void): void {
  try {
    store();
  } catch {
    // The cache only speeds up the next launch; a read-only data folder must not fail the answer.
  }
}
