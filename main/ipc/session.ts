import { realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ProjectRef } from '../../shared/ipc/channels/project';
import type { ProjectHub, ProjectHandle } from '../services/dashboard/hub';
import type { RecentProjects } from '../services/dashboard/recent';
import { SessionServices } from '../services/container';
import type { EmitEvent } from '../services/runs/desk';
import { CodedError } from '../../shared/result';

/**
 * What the handlers need from the process they run in. Electron and the loopback host
 * each build one; only the Electron one can show a native dialog.
 */
export interface Platform {
  readonly version: string;
  readonly examplePath: string | null;
  readonly recent: RecentProjects;
  readonly hub: ProjectHub;
  readonly capabilities: { readonly pickFolder: boolean; readonly nativeMenus: boolean };
  /** Show the open-folder dialog for this session's window. */
  pickFolder?(session: Session): Promise<string | null>;
}

export type Emit = EmitEvent;

/**
 * One renderer's state in main: the project it has open. Electron keeps one per window,
 * the host one per browser tab. Paths from the renderer are resolved against `root` only.
 */
export class Session {
  private current: { ref: ProjectRef; handle: ProjectHandle } | null = null;
  /** The services whose state spans calls; the session ends their lifetimes (see `close`). */
  readonly services: SessionServices;

  constructor(
    readonly platform: Platform,
    readonly emit: Emit,
  ) {
    this.services = new SessionServices(emit);
  }

  get project(): ProjectRef | null {
    return this.current?.ref ?? null;
  }

  /** The open project, or a `no-project` error. */
  requireProject(): { ref: ProjectRef; handle: ProjectHandle } {
    if (!this.current) throw new CodedError('no-project', 'no project is open — open a folder first');
    return this.current;
  }

  /** Open a folder the user chose. It must exist and be a folder; symlinks are resolved. */
  open(path: string): ProjectRef {
    let root: string;
    try {
      root = realpathSync(path);
    } catch {
      throw new CodedError('not-found', `${path}: does not exist`);
    }
    if (!statSync(root).isDirectory())
      throw new CodedError('invalid-request', `${path}: is a file, not a project folder`);
    if (this.current?.ref.root === root) return this.current.ref;
    this.close();
    const ref = { root, name: basename(root) || root };
    const handle = this.platform.hub.acquire(
      root,
      (paths) => this.emit('project.changed', { root, paths, at: new Date().toISOString() }),
      (status) => this.emit('project.watch', { root, ...status }),
    );
    this.current = { ref, handle };
    try {
      this.platform.recent.add(root);
    } catch {
      // The recent list is a convenience; a read-only data dir must not stop the open.
    }
    return ref;
  }

  close(): boolean {
    if (!this.current) return false;
    this.services.projectClosed();
    this.current.handle.release();
    this.current = null;
    return true;
  }

  dispose(): void {
    this.close();
    this.services.dispose();
  }
}
