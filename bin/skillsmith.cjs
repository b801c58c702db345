#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by the one project build (out/main/cli.js).
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const bundle = join(__dirname, '..', 'out', 'main');
const entry = join(bundle, 'cli.js');
if (!existsSync(entry)) {
  process.stderr.write('skillsmith: the CLI is not built yet — run "npm run build" in ' + join(__dirname, '..') + '\n');
  process.exit(2);
}
// Before the first chunk loads: each is then compiled with what V8 kept from an earlier run.
require(join(bundle, 'code-cache.js')).useCodeCache(bundle);
require(entry);
