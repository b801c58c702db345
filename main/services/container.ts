import { RepinFlow } from './dashboard/repin';
import { InstallFlow } from './install/flow';
import { ReviewStore } from './install/reviews';
import { RunDesk, type EmitEvent } from './runs/desk';
import { RunRegistry } from './runs/registry';

/**
 * The stateful services of one renderer session (a window, or a browser tab of the host),
 * built once with the session. Everything that holds state between IPC calls lives here,
 * so its lifetime is the session's: `projectClosed` runs when the session switches or
 * closes its project, `dispose` when the session ends.
 */
export class SessionServices {
  private readonly reviews = new ReviewStore();
  private readonly registry = new RunRegistry();
  readonly install = new InstallFlow(this.reviews);
  readonly repin = new RepinFlow(this.reviews);
  readonly runs: RunDesk;

  constructor(emit: EmitEvent) {
    this.runs = new RunDesk(this.registry, emit);
  }

  /** Reviews and runs belong to the project they were made for: none outlives it. */
  projectClosed(): void {
    this.reviews.clear();
    this.registry.clear();
  }

  dispose(): void {
    this.projectClosed();
  }
}
