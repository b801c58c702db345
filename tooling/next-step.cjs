#!/usr/bin/env node
'use strict';
// The last line `npm ci` prints (the `prepare` script runs it after the build): what to run
// next on this Node. The desktop app's Electron declares its own Node minimum (its installer
// fetches the binary on first start); the CLI, the tests and the browser mode only need
// package.json's. Read from the installed packages so the message cannot drift from them.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const semver = require('semver');

const root = join(__dirname, '..');

/** The Node range a package.json under `root` declares, or undefined. */
function declaredNode(pkgJson) {
  try {
    return JSON.parse(readFileSync(pkgJson, 'utf8')).engines?.node;
  } catch {
    return undefined;
  }
}

/** One line: what to run next on Node `version`, given the ranges the app and Electron declare. */
function nextStep(version, appRange, electronRange) {
  if (appRange && !semver.satisfies(version, appRange))
    return `skillsmith: Node ${version} is older than this project needs (${appRange}): install a newer Node, then run npm ci again`;
  if (!electronRange || semver.satisfies(version, electronRange))
    return 'skillsmith: installed and built — next: npm start (the desktop app) or npm run web (in your browser)';
  return `skillsmith: installed and built — next: npm run web (in your browser) or npm test; the desktop app (npm start) needs Node ${electronRange}, this is ${version}`;
}

if (require.main === module) {
  process.stdout.write(
    nextStep(
      process.version,
      declaredNode(join(root, 'package.json')),
      declaredNode(join(root, 'node_modules', 'electron', 'package.json')),
    ) + '\n',
  );
}

module.exports = { nextStep, declaredNode };
