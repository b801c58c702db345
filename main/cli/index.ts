import { main } from './main';
import { useNativeSha256 } from '../services/native-sha256';

useNativeSha256();

// A reader that goes away (`skillsmith preview … | head`) is not an error of ours: stop
// quietly, as other command-line tools do, instead of printing a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

// The `skillsmith` binary (bin/skillsmith.cjs loads the bundled copy of this file).
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
}).then((code) => {
  process.exitCode = code;
});
