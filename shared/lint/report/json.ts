import type { SkillReport } from './model';

/** The `--json` document: every check carries a `detail` string, empty when there is none. */
export function renderJson(reports: readonly SkillReport[]): string {
  const doc = reports.map((r) => ({
    ...r,
    checks: r.checks.map(({ id, status, detail, locations }) => ({
      id,
      status,
      detail: detail ?? '',
      ...(locations?.length ? { locations } : {}),
    })),
  }));
  return JSON.stringify(doc, null, 2) + '\n';
}
