import type { Area, MethodOf, ParsedRequestOf, ResponseOf } from '../../shared/ipc/contract';
import { adoptHandlers, sourcesHandlers } from './handlers/adopt';
import { appHandlers } from './handlers/app';
import { editorHandlers } from './handlers/editor';
import { evalsHandlers } from './handlers/evals';
import { foldersHandlers } from './handlers/folders';
import { installHandlers } from './handlers/install';
import { lockHandlers } from './handlers/lock';
import { compileHandlers } from './handlers/compile';
import { projectHandlers } from './handlers/project';
import { reportsHandlers } from './handlers/reports';
import { reviewHandlers } from './handlers/review';
import { runsHandlers } from './handlers/runs';
import { settingsHandlers } from './handlers/settings';
import { skillsHandlers } from './handlers/skills';
import { specHandlers } from './handlers/spec';
import type { Session } from './session';

export interface HandlerContext {
  readonly session: Session;
}

export type Handler<A extends Area, M extends MethodOf<A>> = (
  request: ParsedRequestOf<A, M>,
  ctx: HandlerContext,
) => ResponseOf<A, M> | Promise<ResponseOf<A, M>>;

export type AreaHandlers<A extends Area> = { [M in MethodOf<A>]: Handler<A, M> };
export type HandlerTable = { [A in Area]: AreaHandlers<A> };

/**
 * The one handler table, transport-agnostic: Electron's ipcMain and the loopback host
 * both dispatch into it. Its type forces one handler per contract channel.
 */
export const HANDLERS: HandlerTable = {
  app: appHandlers,
  project: projectHandlers,
  skills: skillsHandlers,
  spec: specHandlers,
  runs: runsHandlers,
  install: installHandlers,
  review: reviewHandlers,
  editor: editorHandlers,
  compile: compileHandlers,
  adopt: adoptHandlers,
  sources: sourcesHandlers,
  evals: evalsHandlers,
  folders: foldersHandlers,
  settings: settingsHandlers,
  reports: reportsHandlers,
  lock: lockHandlers,
};
