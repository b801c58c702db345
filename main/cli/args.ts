import { parseArgs } from 'node:util';
import { CodedError } from '../../shared/result';

export interface FlagSpec {
  readonly [name: string]: {
    readonly type: 'boolean' | 'string';
    readonly short?: string;
    readonly multiple?: boolean;
  };
}

export type Parsed<S extends FlagSpec> = {
  positionals: string[];
  flags: {
    [K in keyof S]?: S[K]['type'] extends 'string' ? (S[K]['multiple'] extends true ? string[] : string) : boolean;
  };
};

/** Strict parsing: an unknown flag or a flag missing its value is a usage error. */
export function parseCommandArgs<S extends FlagSpec>(argv: readonly string[], spec: S): Parsed<S> {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: spec, allowPositionals: true, strict: true });
    return { positionals, flags: values as Parsed<S>['flags'] };
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    throw new CodedError('invalid-request', msg.replace(/\. To specify a positional argument.*$/, ''));
  }
}
