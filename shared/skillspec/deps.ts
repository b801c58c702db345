/**
 * `deps check`: whether each declared dependency is available here. `cli` dependencies
 * are looked up on PATH, `file` ones must exist, `env` ones must be set; the other kinds
 * can only be verified by a harness. The probing is behind DepsHost (Node host in
 * main/services/skillspec/deps.ts).
 */
import { unknownReference } from './errors';
import { has, sortedKeys, type DependencyKind, type SkillSpec } from './model';

export type DependencyStatus = 'present' | 'missing' | 'deferred';
export type DependencyCheckMethod = 'path_lookup' | 'file_exists' | 'env_present' | 'harness_required';

export interface DependencyCheckResult {
  id: string;
  kind: DependencyKind;
  status: DependencyStatus;
  check: DependencyCheckMethod;
  permission_required: boolean;
  provisionable: boolean;
  message: string;
}

export interface DependencyCheckReport {
  ok: boolean;
  dependencies: DependencyCheckResult[];
}

export interface DepsHost {
  /** An executable regular file named `program` on PATH, or at that path when it contains `/`. */
  findExecutable(program: string): boolean;
  /** Size of a file or folder at `path` (relative to the spec folder unless absolute), or undefined. */
  pathSize(path: string): number | undefined;
  /** Whether the variable is set (an empty value counts). */
  envSet(name: string): boolean;
}

export const HARNESS_REQUIRED_MESSAGE = 'not locally checkable; requires harness-specific verification before use';

/** Every dependency, or those `command` requires; in id order, each once. */
export function checkDependencies(spec: SkillSpec, host: DepsHost, command?: string): DependencyCheckReport {
  let ids: string[];
  if (command === undefined) ids = sortedKeys(spec.dependencies);
  else {
    if (!has(spec.commands, command)) throw unknownReference('deps.check.command', command);
    ids = [...new Set(spec.commands[command]!.requires.dependencies)].sort();
  }
  const dependencies = ids
    .filter((id) => has(spec.dependencies, id))
    .map((id): DependencyCheckResult => {
      const d = spec.dependencies[id]!;
      const base = {
        id,
        kind: d.kind,
        permission_required: d.permission?.required ?? false,
        provisionable: (d.provision?.options.length ?? 0) > 0,
      };
      switch (d.kind) {
        case 'cli': {
          const cmd = d.check?.command ?? d.command ?? id;
          const program = cmd.trim().split(/\s+/)[0] || cmd;
          const found = host.findExecutable(program);
          return {
            ...base,
            status: found ? 'present' : 'missing',
            check: 'path_lookup',
            message: `${program} ${found ? 'found' : 'not found'} on PATH`,
          };
        }
        case 'file': {
          const path = d.check?.path ?? d.path ?? id;
          const size = host.pathSize(path);
          if (size === undefined)
            return { ...base, status: 'missing', check: 'file_exists', message: `${path} does not exist` };
          if (path.endsWith('deps.toml') && size === 0)
            return { ...base, status: 'missing', check: 'file_exists', message: `${path} exists but is empty` };
          return { ...base, status: 'present', check: 'file_exists', message: `${path} exists` };
        }
        case 'env': {
          const name = d.check?.env ?? d.env ?? id;
          const set = host.envSet(name);
          return {
            ...base,
            status: set ? 'present' : 'missing',
            check: 'env_present',
            message: `${name} is ${set ? 'set' : 'not set'}`,
          };
        }
        default:
          return { ...base, status: 'deferred', check: 'harness_required', message: HARNESS_REQUIRED_MESSAGE };
      }
    });
  return { ok: dependencies.every((d) => d.status !== 'missing'), dependencies };
}
