# Parla's container image (docs/operations.md, "Container image"): the server and the web app
# in one Node.js process, SQLite and the files in the /data volume unless DATABASE_URL and
# S3_* name other stores. Built from the official node:24-bookworm-slim image; CI, which
# reaches no image registry, builds an image of that name from Debian and npm first
# (.ci/base-image.sh), and this file builds unchanged on it.

FROM node:24-bookworm-slim AS build
# No compiler needed: the native modules (better-sqlite3, sherpa-onnx) come prebuilt in their
# npm packages.
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /src
COPY . .
# The production path of docs/operations.md: build with the dev dependencies, then keep only
# what the server loads (npm run prune:production).
RUN npm ci && npm run build && npm run prune:production

FROM node:24-bookworm-slim
# espeak-ng from Debian: the standard engine's native backend (the WebAssembly one serves
# without it, slower); LAME and libvorbisenc: mp3 and Ogg Vorbis encoded at native speed
# (docs/decisions/041 and 045; the WebAssembly builds encode without them).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng \
    libmp3lame0 libvorbisenc2 \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data && chown node:node /data
# The code belongs to root: the server (user node) can read it, never change it.
COPY --from=build /src /app
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
VOLUME /data
EXPOSE 3000
USER node
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Node is the container's first process: the server handles SIGTERM itself (finishes the
# requests in flight, hands queued work back, exits 0).
CMD ["node", "apps/server/dist/server.js"]
