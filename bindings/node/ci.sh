#!/usr/bin/env bash
# The Node package's checks, from a clean clone: the pinned dev dependencies
# (package-lock.json, `npm ci`), the addon built from this repository with napi-rs
# (nothing prebuilt is fetched), then the tests (node:test; they include tsc on the
# typed example). Needs node 20.19+ with npm, cargo, and the npm registry. It builds
# Rust: run it where no other cargo build runs at the same time.
set -euo pipefail
cd "$(dirname "$0")"

echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== npm run build"
npm run build

echo "== npm test"
npm test
