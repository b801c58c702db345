import { useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { EvalsOverview } from '../../../../shared/ipc/channels/evals';
import { CellDetail } from './CellDetail';
import { cellKey, cellsOf, runnerColumns } from './eval-text';
import { EvalRunPanel } from './EvalRunPanel';
import { EvalsGrid, type Picked } from './EvalsGrid';
import { HistoryChart } from './HistoryChart';
import { useEvalRun } from './use-eval-run';

type SkillRow = EvalsOverview['skills'][number];

/** One skill's evals: run them, the grid of results, the picked result's trials, and the pass-rate history. */
export function SkillEvals({
  project,
  overview,
  skill,
}: {
  project: ProjectRef;
  overview: EvalsOverview;
  skill: SkillRow;
}) {
  const run = useEvalRun(project, overview, skill.name);
  const [picked, setPicked] = useState<Picked | null>(null);
  const { configured, runner, progress } = run;
  // Cells: this run's results over the newest stored ones.
  const cells = useMemo(() => cellsOf(overview.latest, progress, skill.name), [overview.latest, progress, skill.name]);
  const runnerIds = useMemo(() => runnerColumns(configured, cells, runner), [configured, cells, runner]);
  const pickedCell = picked ? cells.get(cellKey(picked.eval, picked.runner)) : undefined;

  return (
    <>
      <EvalRunPanel overview={overview} skill={skill} run={run} />
      <EvalsGrid skill={skill} runnerIds={runnerIds} cells={cells} picked={picked} onPick={setPicked} />
      {pickedCell && (
        <CellDetail key={`${pickedCell.runId}/${picked!.eval}/${picked!.runner}`} project={project} cell={pickedCell} />
      )}
      <HistoryChart project={project} skill={skill.name} />
    </>
  );
}
