/**
 * The one error model (shared/result.ts): the code table is pinned here, row by row, so a
 * code cannot change what the renderer sees or how the CLI exits without this test saying
 * so; and every code is produced somewhere, so the table holds no dead rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC_ERROR_CODES } from '../../shared/ipc/errors';
import { CodedError, ERROR_CODES, EXIT, fileError, formatError, isCoded, type ErrorCode } from '../../shared/result';
import { repoRoot } from '../support/paths';

describe('the code table', () => {
  it('is exactly this: each code with one IPC code and one exit code', () => {
    const rows = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, r]) => [code, [r.ipc, r.exit]]));
    expect(rows).toEqual({
      'invalid-request': ['invalid-request', 2],
      'invalid-input': ['invalid-request', 1],
      'not-found': ['not-found', 1],
      'no-project': ['no-project', 1],
      'outside-project': ['outside-project', 1],
      forbidden: ['forbidden', 1],
      unsupported: ['unsupported', 1],
      internal: ['internal', 1],
      'invalid-response': ['invalid-response', 1],
      'unknown-channel': ['unknown-channel', 2],
    });
  });

  it('reaches every IPC code, each from the code of the same name', () => {
    for (const ipc of IPC_ERROR_CODES) {
      const from = Object.entries(ERROR_CODES).filter(([, r]) => r.ipc === ipc);
      expect(from.map(([code]) => code)).toContain(ipc);
    }
  });

  it('is one-to-one onto IPC codes but for invalid-input, which the contract reports as invalid-request', () => {
    const shared = IPC_ERROR_CODES.filter((ipc) => Object.values(ERROR_CODES).filter((r) => r.ipc === ipc).length > 1);
    expect(shared).toEqual(['invalid-request']);
    // The two differ where the CLI tells them apart: a malformed command line, or a thing that does not load.
    expect(ERROR_CODES['invalid-request'].exit).toBe(EXIT.usage);
    expect(ERROR_CODES['invalid-input'].exit).toBe(EXIT.failed);
  });

  it('exits only through the EXIT table, never with success', () => {
    const exits = new Set<number>(Object.values(EXIT));
    for (const r of Object.values(ERROR_CODES)) {
      expect(exits.has(r.exit)).toBe(true);
      expect(r.exit).not.toBe(EXIT.ok);
    }
  });
});

/** The source files that make up the app and the CLI (no tests, no renderer: the renderer only reads codes). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.ts$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Produced: thrown, failed with, or put in an IPC envelope — not merely compared against. */
const produced = (code: string): RegExp => new RegExp(`(?:(?:new CodedError|\\bfail)\\(\\s*|\\bcode: )'${code}'`);

describe('no code unused', () => {
  const table = ['shared/result.ts', 'shared/ipc/errors.ts'];
  const files = [...sources('shared'), ...sources('main'), ...sources('preload')].filter((f) => !table.includes(f));
  const text = files.map((f) => readFileSync(join(repoRoot, f), 'utf8'));

  it.each(Object.keys(ERROR_CODES).map((c) => [c]))('%s is produced somewhere', (code) => {
    const made = produced(code);
    expect(
      text.some((t) => made.test(t)),
      `${code} is in the table but nothing produces it`,
    ).toBe(true);
  });

  it('the search finds a code where it is produced', () => {
    const made = produced('invalid-input');
    expect(made.test("return fail('invalid-input', 'x');")).toBe(true);
    expect(made.test("return fail(\n  'invalid-input',\n  'x',\n);")).toBe(true);
    expect(made.test("if (isCoded(e, 'invalid-input')) return;")).toBe(false);
  });
});

describe('SkillsmithError and CodedError', () => {
  it('formats the place first when there is one, the message alone when not', () => {
    expect(formatError(fileError('kitbash.lock', 'boom', { line: 2, column: 5 }))).toBe('kitbash.lock:2:5: boom');
    expect(formatError({ code: 'not-found', message: 'x is not installed' })).toBe('x is not installed');
  });

  it('a CodedError carries the code and the formatted message', () => {
    const e = CodedError.of(fileError('a/skill.toml', 'invalid manifest', { detail: ['one'] }));
    expect(e).toBeInstanceOf(Error);
    expect([e.code, e.message]).toEqual(['invalid-input', 'a/skill.toml: invalid manifest\n  - one']);
  });

  it('isCoded matches by class, and by code when codes are given', () => {
    const e = new CodedError('forbidden', 'no');
    const codes: ErrorCode[] = ['forbidden', 'not-found'];
    expect(isCoded(e)).toBe(true);
    expect(isCoded(e, ...codes)).toBe(true);
    expect(isCoded(e, 'not-found')).toBe(false);
    expect(isCoded(new Error('no'))).toBe(false);
    expect(isCoded(Object.assign(new Error('no'), { code: 'forbidden' }), 'forbidden')).toBe(false);
  });
});
