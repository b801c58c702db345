import { randomUUID } from 'node:crypto';

export const OVERRIDE_TTL_MS = 5 * 60_000;

/** What an override confirmation was issued for: the ask and what the plan showed would run. */
export interface OverrideGrant {
  readonly key: string;
  readonly shown: string;
}

/**
 * One renderer session's runs in flight and its one-time override tokens. A token is good
 * for one start within a few minutes, then gone; nothing about an override is remembered
 * beyond that. `clear` (session end or project switch) cancels every run and forgets every
 * token, so nothing started for one project outlives it.
 */
export class RunRegistry {
  private readonly active = new Map<string, AbortController>();
  private readonly overrides = new Map<string, OverrideGrant & { expires: number }>();

  constructor(
    private readonly ttlMs = OVERRIDE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  issueOverride(grant: OverrideGrant): string {
    this.sweep();
    const token = randomUUID();
    this.overrides.set(token, { ...grant, expires: this.now() + this.ttlMs });
    return token;
  }

  /** The grant behind `token`, consumed whatever the caller does next: one attempt only. */
  consumeOverride(token: string): OverrideGrant | undefined {
    this.sweep();
    const grant = this.overrides.get(token);
    this.overrides.delete(token);
    return grant;
  }

  /** A new run's abort signal; the run is tracked until `finished`. */
  track(runId: string): AbortSignal {
    const controller = new AbortController();
    this.active.set(runId, controller);
    return controller.signal;
  }

  finished(runId: string): void {
    this.active.delete(runId);
  }

  cancel(runId: string): boolean {
    const run = this.active.get(runId);
    if (!run) return false;
    run.abort();
    return true;
  }

  clear(): void {
    for (const run of this.active.values()) run.abort();
    this.active.clear();
    this.overrides.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [t, o] of this.overrides) if (o.expires <= now) this.overrides.delete(t);
  }
}
