import * as electron from 'electron';
import { startDesktop } from './electron/desktop';
import { VERSION } from './cli/version';
import { useNativeSha256 } from './services/native-sha256';

// The Electron entry: with main/electron/ and preload/, the only code that imports electron.
useNativeSha256();
startDesktop(electron, VERSION);
