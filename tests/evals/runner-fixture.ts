import type { RunnerConfig } from '../../shared/evals/model';

/** A runner as kitbash.toml would define it, with nothing granted unless `over` says so. */
export const runnerConfig = (over: Partial<RunnerConfig> = {}): RunnerConfig => ({
  id: 'agent',
  command: ['./agent', '{task}'],
  target: 'claude-code',
  timeoutMs: 600_000,
  network: false,
  env: [],
  read: [],
  home: [],
  transcript: 'text',
  ...over,
});
