#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by the one project build (out/main/cli.js).
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const entry = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(entry)) {
  process.stderr.write('skillsmith: the CLI is not built yet — run "npm run build" in ' + join(__dirname, '..') + '\n');
  process.exit(2);
}
require(entry);
