import * as electron from 'electron';
import { startDesktop } from './electron/desktop';
import { VERSION } from './cli/version';

// The Electron entry: with main/electron/ and preload/, the only code that imports electron.
startDesktop(electron, VERSION);
