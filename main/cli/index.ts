import { main } from './main';

// The `skillsmith` binary (bin/skillsmith.cjs loads the bundled copy of this file).
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
}).then((code) => {
  process.exitCode = code;
});
