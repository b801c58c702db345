/** A reader that closes early (`skillsmith … | head`) ends the CLI quietly, never with a stack trace. */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillsmithBin } from '../support/paths';
import { requireBuiltCli } from './helpers';

beforeAll(requireBuiltCli);

function runWithClosedStdout(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [skillsmithBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('closed stdout', () => {
  it('help into a closed pipe exits 0 with nothing on stderr', async () => {
    const r = await runWithClosedStdout('help');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
