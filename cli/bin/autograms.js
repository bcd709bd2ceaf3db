#!/usr/bin/env node
// Loads the bundled CLI (built by `npm run build`, which `npm ci` runs).
import "../dist/autograms.mjs";
