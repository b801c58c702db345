import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TargetInfo } from '../../../shared/ipc';
import { isTargetId } from '../../../shared/targets/registry';
import { useApi } from '../api/context';
import { formatTokens } from '../format';
import { queryKeys } from '../query-keys';

/**
 * A folder without kitbash.toml: offer to set it up, with the agent targets chosen here
 * (spec D220) — the agents whose markers are present proposed, each priced per session
 * for the skills at hand. Nothing is set up until at least one target is ticked.
 */
export function SetUp({ root, targets }: { root: string; targets: readonly TargetInfo[] }) {
  const api = useApi();
  const qc = useQueryClient();
  const offered = targets.filter((t) => t.setup !== null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set(offered.filter((t) => t.setup?.proposed).map((t) => t.id)),
  );
  const init = useMutation({
    mutationFn: () => api.project.init({ targets: [...chosen].filter(isTargetId) }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) }),
  });
  const toggle = (id: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <section className="banner dash-setup-note" data-testid="setup-note" aria-labelledby="setup-title">
      <div className="dash-setup-text">
        <strong id="setup-title">This folder is not set up as a project yet.</strong> There is no{' '}
        <code>kitbash.toml</code>. Choose the agents to compile for: each is written into <code>[project].targets</code>
        , and its cost is charged in every session. Setting up also creates <code>.kitbash/skills/</code>; nothing is
        overwritten.
        {init.isError && (
          <span className="inline-error" role="alert">
            {' '}
            {init.error.message}
          </span>
        )}
      </div>
      <fieldset className="dash-setup-targets" data-testid="setup-targets">
        <legend>Agent targets (tokens every session, for the skills here)</legend>
        {offered.map((t) => (
          <label key={t.id} className="dash-setup-target" data-target={t.id}>
            <input type="checkbox" checked={chosen.has(t.id)} onChange={() => toggle(t.id)} />
            <span className="dash-setup-target-name">
              {t.id}
              {t.setup?.proposed && <span className="dash-setup-detected"> · detected</span>}
            </span>
            <span className="dash-setup-target-agent">{t.label}</span>
            <span className="dash-setup-target-cost" data-cost={t.setup?.tokens}>
              ~{formatTokens(t.setup?.tokens)} tokens · {t.loading}
            </span>
          </label>
        ))}
      </fieldset>
      <button
        type="button"
        className="btn primary"
        onClick={() => init.mutate()}
        disabled={init.isPending || chosen.size === 0}
        data-action="init"
      >
        {init.isPending ? 'Setting up…' : chosen.size === 0 ? 'Choose a target to set up' : 'Set up this folder'}
      </button>
    </section>
  );
}
