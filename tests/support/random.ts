/**
 * The seeded PRNG of bench/lib/stats.mjs (mulberry32), for tests: one generator for the
 * bench and the tests, so a failing seed rebuilds the same data in both.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths';

const stats = (await import(pathToFileURL(join(repoRoot, 'bench', 'lib', 'stats.mjs')).href)) as {
  mulberry32: (seed: number) => () => number;
};

/** Floats in [0, 1); the same seed, the same sequence. */
export const seeded: (seed: number) => () => number = stats.mulberry32;
