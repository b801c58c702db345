/** `skillsmith serve` as a command: its arguments, its first line, a clean stop. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openerCommand, runServe } from '../../main/cli/commands/serve';
import { main } from '../../main/cli/main';
import type { CliIo } from '../../main/cli/io';

function io(cwd: string): CliIo & { text: () => string; errors: () => string } {
  let out = '';
  let err = '';
  return { cwd, out: (t) => void (out += t), err: (t) => void (err += t), text: () => out, errors: () => err };
}

describe('skillsmith serve', () => {
  it('refuses bad arguments with one-line usage errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillsmith-serve-'));
    try {
      writeFileSync(join(dir, 'file'), '');
      const cases: [string[], RegExp][] = [
        [['serve', '--port', 'abc'], /^skillsmith serve: --port abc: expected a port number 0–65535\n$/],
        [['serve', '--port', '70000'], /expected a port number/],
        [['serve', '--project', 'nope'], /^skillsmith serve: --project nope: .*nope does not exist\n$/],
        [['serve', '--project', 'file'], /--project file: is a file, not a project folder/],
        [['serve', 'extra'], /unexpected argument "extra"/],
        [['serve', '--bogus'], /^skillsmith serve: Unknown option '--bogus'/],
      ];
      for (const [argv, re] of cases) {
        const t = io(dir);
        expect(await main(argv, t), argv.join(' ')).toBe(2);
        expect(t.errors()).toMatch(re);
        expect(t.errors().split('\n').filter(Boolean)).toHaveLength(1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says plainly when the app is not built', async () => {
    const t = io(tmpdir());
    await expect(runServe([], t, { rendererDir: join(tmpdir(), 'no-such-renderer') })).rejects.toThrow(
      /the app is not built .* run "npm run build" first/,
    );
  });

  it('prints the URL as its first line, serves until stopped, then exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillsmith-serve-'));
    const renderer = join(dir, 'renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
    mkdirSync(join(dir, 'proj', '.kitbash', 'skills'), { recursive: true });
    const prev = process.env.SKILLSMITH_DATA_DIR;
    process.env.SKILLSMITH_DATA_DIR = join(dir, 'data');
    try {
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const t = io(join(dir, 'proj'));
      const running = runServe(['--port', '0'], t, { rendererDir: renderer, stopped });
      for (let i = 0; i < 100 && !t.text().includes('\n'); i++) await new Promise((r) => setTimeout(r, 20));
      const [first, second] = t.text().split('\n');
      const m = /^Skillsmith running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))$/.exec(first!);
      expect(m).not.toBeNull();
      // Started inside a project folder: that folder is the project.
      expect(second).toBe(`project: ${join(dir, 'proj')}`);
      const res = await fetch(m![1]!);
      expect(res.status).toBe(200);
      stop();
      expect(await running).toBe(0);
      await expect(fetch(m![1]!)).rejects.toThrow();
    } finally {
      if (prev === undefined) delete process.env.SKILLSMITH_DATA_DIR;
      else process.env.SKILLSMITH_DATA_DIR = prev;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--open gives the browser a one-time code, never the token: the opened URL works once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillsmith-serve-'));
    const renderer = join(dir, 'renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
    const prev = process.env.SKILLSMITH_DATA_DIR;
    process.env.SKILLSMITH_DATA_DIR = join(dir, 'data');
    try {
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const launched: { cmd: string; args: readonly string[] }[] = [];
      const t = io(dir);
      const running = runServe(['--open'], t, {
        rendererDir: renderer,
        stopped,
        launch: (cmd, args) => launched.push({ cmd, args }),
      });
      for (let i = 0; i < 100 && launched.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      const m = /^Skillsmith running at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)$/.exec(
        t.text().split('\n')[0]!,
      );
      expect(m).not.toBeNull();
      const [origin, token] = [m![1]!, m![3]!];
      expect(launched).toHaveLength(1);
      const { cmd, args } = launched[0]!;
      expect([cmd, args]).toEqual(openerCommand(args.at(-1)!, process.platform));
      // What the process list shows: no token, a code for this server.
      expect([cmd, ...args].join(' ')).not.toContain(token);
      const opened = new URL(args.at(-1)!);
      expect(opened.origin).toBe(origin);
      const code = opened.searchParams.get('code')!;
      expect(code).toMatch(/^[\w-]{32}$/);
      expect((await fetch(opened)).status).toBe(200);
      const exchange = () =>
        fetch(`${origin}/session/exchange`, { method: 'POST', headers: { origin, 'x-skillsmith-code': code } });
      const first = await exchange();
      expect(await first.json()).toEqual({ token });
      expect((await exchange()).status).toBe(401);
      expect((await fetch(opened)).status).toBe(401);
      stop();
      expect(await running).toBe(0);
    } finally {
      if (prev === undefined) delete process.env.SKILLSMITH_DATA_DIR;
      else process.env.SKILLSMITH_DATA_DIR = prev;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds the opener for each platform with the URL as its one argument', () => {
    const url = 'http://127.0.0.1:1/?code=x';
    expect(openerCommand(url, 'linux')).toEqual(['xdg-open', [url]]);
    expect(openerCommand(url, 'darwin')).toEqual(['open', [url]]);
    expect(openerCommand(url, 'win32')).toEqual(['cmd', ['/c', 'start', '""', url]]);
  });
});
