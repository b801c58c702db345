import { z } from 'zod';
import { eventStream } from './define';
import { WatchStatus } from './channels/project';

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
  /** The watch of the open project changed: a folder could (no longer) be watched. */
  'project.watch': eventStream(
    "whether changes on disk reach this window changed (the open project's folders watched and not)",
    WatchStatus.extend({ root: z.string() }),
  ),
  /** The open project was switched from outside the renderer (a menu, the command line). */
  'project.opened': eventStream(
    'main opened a project for this window (menu, second instance)',
    z.object({ root: z.string(), name: z.string() }),
  ),
  /** The project was closed from outside the renderer (the File menu). */
  'project.closed': eventStream("main closed this window's project (menu)", z.object({ root: z.string() })),
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
  /** The state of a sandboxed run: started, a stream truncated at its cap, exited (the runs panel). */
  'run.status': eventStream(
    'state of a sandboxed run: started, output truncated, exit with status and duration',
    z.discriminatedUnion('type', [
      z.object({ runId: z.string(), type: z.literal('started'), at: z.string() }),
      z.object({
        runId: z.string(),
        type: z.literal('truncated'),
        stream: z.enum(['stdout', 'stderr']),
        limitBytes: z.number().int(),
      }),
      z.object({
        runId: z.string(),
        type: z.literal('exit'),
        outcome: z.string(),
        exitCode: z.number().int().nullable(),
        durationMs: z.number(),
        dropped: z.object({ stdout: z.number().int(), stderr: z.number().int() }),
        verdict: z.enum(['pass', 'fail']).optional(),
        verdictDetail: z.string().optional(),
        message: z.string().optional(),
        /** write = true: what was applied to the project from the run's staged copy, and what was refused (D183). */
        writes: z
          .object({
            applied: z.array(
              z.object({
                path: z.string(),
                change: z.enum(['added', 'changed', 'deleted']),
                kind: z.enum(['file', 'dir', 'symlink', 'other']),
                diff: z.string().optional(),
              }),
            ),
            refused: z.array(
              z.object({ path: z.string(), change: z.enum(['added', 'changed', 'deleted']), reason: z.string() }),
            ),
            notApplied: z.string().optional(),
          })
          .optional(),
      }),
    ]),
  ),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]['payload']>;
