import { INJECTION_EXPRESSIONS } from './injection';
import { LITERALS_TABLE } from './match/literals-table';
import { lazyMatcher } from './match/matcher';
import { REMOTE_EXEC_EXPRESSIONS } from './safety/remote-exec';
import { SECRET_EXPRESSIONS } from './safety/secrets';
import { INVISIBLE_RUN } from './safety/visible-text';

/** The expressions of every content scanner; ./match/literals-table.ts lists their literals. */
export const SCANNER_EXPRESSIONS: readonly RegExp[] = [
  ...INJECTION_EXPRESSIONS,
  ...REMOTE_EXEC_EXPRESSIONS,
  ...SECRET_EXPRESSIONS,
  INVISIBLE_RUN,
];

/** One matcher for all of them, so each text is read once for every scanner. */
export const scannerMatcher = lazyMatcher(() => SCANNER_EXPRESSIONS, LITERALS_TABLE);
