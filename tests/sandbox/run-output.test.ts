/**
 * A script's own output is escaped on the terminal (issue 38, item 5): raw, it could write
 * the clipboard (OSC 52), retitle the window (OSC 0) or rewrite a line with CR and cursor
 * movement — a forged "■ exit 0" over a failure. `run` and `gate` show each control
 * character as a visible escape; `--raw` passes the bytes on as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../cli/helpers';
import { runCli } from '../support/paths';
import { bwrapWorks, cleanup, project } from './helpers';

const ok = await bwrapWorks();
beforeAll(requireBuiltCli);
afterAll(cleanup);

const OSC52 = '\u001b]52;c;cm0gLXJmIH4K\u0007';
const TITLE = '\u001b]0;pwned\u0007';
const C1_CSI = '\u009b31m';
/** Erase the line, go back to its start, move up one: the real last line is overwritten. */
const FAKE_EXIT = 'oops\r\u001b[2K\u001b[1A■ exit 0 in 3 ms\n';

/** printf's own escapes spell each byte, so the script's file holds no control characters. */
const HOSTILE =
  "#!/bin/sh\nprintf '\\033]52;c;cm0gLXJmIH4K\\007'\nprintf '\\033]0;pwned\\007'\nprintf '\\302\\23331m\\tend\\n'\n" +
  "printf 'oops\\r\\033[2K\\033[1A\\342\\226\\240 exit 0 in 3 ms\\n' >&2\nexit 7\n";

/** What must never reach a terminal raw: C0 controls but newline and tab, DEL and C1. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

describe.skipIf(!ok)('run and gate escape the script output', () => {
  it('run: OSC 52, a title change, C1 CSI and a CR/erase-line forgery are shown, not obeyed', () => {
    const root = project({ hostile: { scripts: { 'hostile.sh': HOSTILE } } });
    const r = runCli(['run', 'hostile', 'hostile.sh'], { cwd: root });
    expect(r.code, r.stderr).toBe(7);
    expect(RAW_CONTROL.exec(r.stdout)).toBeNull();
    expect(RAW_CONTROL.exec(r.stderr)).toBeNull();
    expect(r.stdout).toBe('\\e]52;c;cm0gLXJmIH4K\\x07\\e]0;pwned\\x07\\x9b31m\tend\n');
    expect(r.stderr).toContain('oops\\r\\e[2K\\e[1A■ exit 0 in 3 ms\n');
    // The runner's own line still comes last and tells the truth.
    expect(r.stderr).toMatch(/■ exit 7 in \d+ ms\n$/);
  });

  it('run --raw passes the bytes on exactly (the control run above shows they are really printed)', () => {
    const root = project({ hostile: { scripts: { 'hostile.sh': HOSTILE } } });
    const r = runCli(['run', 'hostile', 'hostile.sh', '--raw'], { cwd: root });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe(`${OSC52}${TITLE}${C1_CSI}\tend\n`);
    expect(r.stderr).toContain(FAKE_EXIT);
    // What Skillsmith itself says stays escaped even under --raw: only the script's bytes pass.
    expect(r.stderr).toMatch(/^▶ hostile@1\.0\.0 scripts\/hostile\.sh /m);
  });

  it('gate escapes the same way, and takes --raw too', () => {
    const root = project({ hostile: { toml: '[targets]\nmode = "gate"\n', scripts: { 'hostile.sh': HOSTILE } } });
    const r = runCli(['gate', 'hostile'], { cwd: root });
    expect(r.code, r.stderr).toBe(7);
    expect(RAW_CONTROL.exec(r.stdout + r.stderr)).toBeNull();
    expect(r.stdout).toContain('\\e]52;c;');
    const raw = runCli(['gate', 'hostile', '--raw'], { cwd: root });
    expect(raw.stdout).toContain(OSC52);
  });
});
