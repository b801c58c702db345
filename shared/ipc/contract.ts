import type { z } from 'zod';
import { adoptChannels, sourcesChannels } from './channels/adopt';
import { appChannels } from './channels/app';
import { editorChannels } from './channels/editor';
import { evalsChannels } from './channels/evals';
import { foldersChannels } from './channels/folders';
import { installChannels } from './channels/install';
import { lockChannels } from './channels/lock';
import { compileChannels } from './channels/compile';
import { projectChannels } from './channels/project';
import { reportsChannels } from './channels/reports';
import { reviewChannels } from './channels/review';
import { runsChannels } from './channels/runs';
import { settingsChannels } from './channels/settings';
import { skillsChannels } from './channels/skills';
import { specChannels } from './channels/spec';
import type { ChannelDef } from './define';
import { EVENTS, type EventName, type EventPayload } from './events';

/**
 * THE IPC contract: every channel, grouped by area. To add a channel, add it to its
 * area's file under channels/ (or add an area file and list it here); the surface
 * snapshot test then fails until the snapshot is updated, and the exhaustiveness test
 * fails until main/ipc has a handler for it. The preload and the web bridge pick it up
 * by themselves.
 *
 * The wire name of a channel is `<area>.<method>`, e.g. `project.dashboard`.
 */
export const CONTRACT = {
  app: appChannels,
  project: projectChannels,
  skills: skillsChannels,
  spec: specChannels,
  runs: runsChannels,
  install: installChannels,
  review: reviewChannels,
  editor: editorChannels,
  compile: compileChannels,
  adopt: adoptChannels,
  sources: sourcesChannels,
  evals: evalsChannels,
  folders: foldersChannels,
  settings: settingsChannels,
  reports: reportsChannels,
  lock: lockChannels,
} as const;

export type Contract = typeof CONTRACT;
export type Area = keyof Contract;
export type MethodOf<A extends Area> = keyof Contract[A] & string;
export type ChannelName = { [A in Area]: `${A}.${MethodOf<A>}` }[Area];

type Def<A extends Area, M extends MethodOf<A>> = Contract[A][M] extends ChannelDef ? Contract[A][M] : never;
export type RequestOf<A extends Area, M extends MethodOf<A>> = z.input<Def<A, M>['request']>;
export type ResponseOf<A extends Area, M extends MethodOf<A>> = z.output<Def<A, M>['response']>;
/** What a handler receives after validation. */
export type ParsedRequestOf<A extends Area, M extends MethodOf<A>> = z.output<Def<A, M>['request']>;

export type Unsubscribe = () => void;

/** The interface the renderer talks to, whatever carries it (Electron IPC or the loopback host). */
export type Api = {
  [A in Area]: { [M in MethodOf<A>]: (request: RequestOf<A, M>) => Promise<ResponseOf<A, M>> };
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): Unsubscribe;
};

/** Every channel as [area, method, wire name, definition], in contract order. */
export function listChannels(): { area: Area; method: string; name: ChannelName; def: ChannelDef }[] {
  const out: { area: Area; method: string; name: ChannelName; def: ChannelDef }[] = [];
  for (const area of Object.keys(CONTRACT) as Area[]) {
    for (const [method, def] of Object.entries(CONTRACT[area] as Record<string, ChannelDef>)) {
      out.push({ area, method, name: `${area}.${method}` as ChannelName, def });
    }
  }
  return out;
}

const BY_NAME = new Map(listChannels().map((c) => [c.name as string, c]));

/** The definition behind a wire name, or undefined for a name the contract does not have. */
export function lookupChannel(
  name: string,
): { area: Area; method: string; name: ChannelName; def: ChannelDef } | undefined {
  return BY_NAME.get(name);
}

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENTS, name);
}

export { EVENTS };
export type { EventName, EventPayload };
