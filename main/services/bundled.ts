import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A separately bundled entry file (a worker) of the built app. The bundler puts entries in
 * out/main/ and shared code in out/main/chunks/, so the caller's own folder may be either;
 * undefined when running from sources (tests) where nothing is bundled.
 */
export function bundledEntry(name: string): string | undefined {
  return [join(__dirname, name), join(__dirname, '..', name)].find((f) => existsSync(f));
}
