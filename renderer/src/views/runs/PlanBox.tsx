import type { RunPlanView } from '../../../../shared/ipc/channels/runs';
import { LabelsTable } from './LabelsTable';

/** Exactly what would run: the command, the folder, how it is confined, and each restriction's label. */
export function PlanBox({ plan }: { plan: RunPlanView }) {
  return (
    <div className="runs-plan" data-testid="plan">
      <div className="runs-cmd mono" title={plan.cwd}>
        <span className="muted">$</span> {plan.argv.join(' ')}
      </div>
      <p className="small muted">
        in {plan.cwd} ·{' '}
        {plan.override ? 'without the OS sandbox (one-time override)' : `confined by ${plan.backend.backend}`}
        {plan.produces.length ? ` · validates ${plan.produces.join(', ')}` : ''}
      </p>
      <LabelsTable rows={plan.rows} caption="Sandbox labels" />
    </div>
  );
}
