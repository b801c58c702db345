/**
 * The test hooks live only in the test build: the shipped renderer (out/renderer, what
 * `npm run dist` packages and `skillsmith serve` serves) has neither the editor's window
 * hook nor its module, while out/renderer-test, which the e2e suites drive, has both.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

function bundle(dir: string): Map<string, string> {
  const root = join(repoRoot, 'out', dir);
  if (!existsSync(join(root, 'index.html'))) throw new Error(`out/${dir} is not built: run \`npm run build\``);
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|html)$/.test(e.name)) files.set(p.slice(root.length + 1), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return files;
}

const HOOK = '__skillsmithEditor';

describe('test hooks only in the test build', () => {
  it('the shipped renderer holds no test hook, nor the flag that would turn one on', () => {
    const shipped = bundle('renderer');
    expect([...shipped.keys()].some((f) => f.endsWith('.js'))).toBe(true);
    for (const [file, text] of shipped) {
      expect(text.includes(HOOK), file).toBe(false);
      expect(text.includes('__SKILLSMITH_TEST_HOOKS__'), file).toBe(false);
      expect(/testHook/.test(file), file).toBe(false);
    }
  });

  it('the test build has the hook (what the e2e suites and the editor bench read)', () => {
    const test = bundle('renderer-test');
    expect([...test.values()].some((t) => t.includes(HOOK))).toBe(true);
    // The same app otherwise: the same entry page and the same workers.
    const workers = (b: Map<string, string>) => [...b.keys()].filter((f) => /worker/.test(f)).sort();
    expect(workers(test)).toEqual(workers(bundle('renderer')));
  });
});
