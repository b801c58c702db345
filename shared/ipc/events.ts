import { z } from 'zod';
import { eventStream } from './define';

/**
 * Main → renderer event streams. Add a stream here and both transports carry it; the
 * renderer subscribes with `api.on(name, listener)`.
 */
export const EVENTS = {
  /** Files of the open project changed on disk (debounced). The dashboard refetches. */
  'project.changed': eventStream(
    'files of the open project changed on disk (debounced)',
    z.object({ root: z.string(), paths: z.array(z.string()), at: z.string() }),
  ),
  /** The open project was switched from outside the renderer (a menu, the command line). */
  'project.opened': eventStream('main opened a project for this window (menu, second instance)', z.object({ root: z.string(), name: z.string() })),
  /** The project was closed from outside the renderer (the File menu). */
  'project.closed': eventStream('main closed this window\'s project (menu)', z.object({ root: z.string() })),
  /** Progress of a long operation (install, compile, scan). */
  progress: eventStream(
    'progress of a long operation',
    z.object({ id: z.string(), label: z.string(), done: z.number().int(), total: z.number().int().nullable() }),
  ),
  /** Output of a sandboxed run, chunk by chunk. */
  'run.output': eventStream(
    'output of a sandboxed run',
    z.object({ runId: z.string(), stream: z.enum(['stdout', 'stderr']), chunk: z.string() }),
  ),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]['payload']>;
