import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { dispatch } from '../../main/ipc/dispatch';
import { Session, type Platform } from '../../main/ipc/session';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { RecentProjects } from '../../main/services/dashboard/recent';
import { repoRoot } from '../support/paths';

export interface Scratch {
  readonly dir: string;
  readonly project: string;
  readonly dataDir: string;
  cleanup(): void;
}

/** A temp folder with a copy of the example workspace and an empty data dir. */
export function scratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'skillsmith-desktop-'));
  const project = join(dir, 'workspace');
  cpSync(join(repoRoot, 'examples', 'workspace'), project, { recursive: true });
  return { dir, project, dataDir: join(dir, 'data'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function testPlatform(dataDir: string, extra: Partial<Platform> = {}): Platform {
  return {
    version: '0.0.0-test',
    examplePath: join(repoRoot, 'examples', 'workspace'),
    recent: new RecentProjects(dataDir),
    hub: new ProjectHub(undefined, 40),
    capabilities: { pickFolder: false, nativeMenus: false },
    ...extra,
  };
}

export type Emitted = { event: EventName; payload: unknown }[];

export function testSession(platform: Platform): { session: Session; emitted: Emitted } {
  const emitted: Emitted = [];
  const session = new Session(
    platform,
    <E extends EventName>(event: E, payload: EventPayload<E>) => void emitted.push({ event, payload }),
  );
  return { session, emitted };
}

/**
 * A session opened on `project`, driven as the renderer drives it: `raw` returns dispatch's
 * envelope, `call` its value (throwing the coded error of a refusal).
 */
export function openedSession(project: string, dataDir: string) {
  const { session, emitted } = testSession(testPlatform(dataDir));
  session.open(project);
  const raw = (channel: string, payload: unknown) => dispatch(channel, payload, { session });
  const call = async <T>(channel: string, payload: unknown): Promise<T> => {
    const env = await raw(channel, payload);
    if (!env.ok) throw Object.assign(new Error(env.error.message), { code: env.error.code });
    return env.value as T;
  };
  return { session, emitted, raw, call };
}

/** Resolves once `cond()` holds (polled every 20 ms); rejects after `ms`. */
export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
