# syntax=docker/dockerfile:1
# Haul: the web app, the server's bundle (scripts/build-server.mjs) and the browser extension's zips (offered at
# /drive/extension) built (`npm run build`) and production dependencies installed in a builder; the server runs from
# its bundle with plain node, as `npm start` does. One image for every role: `serve` (HTTP), `worker` (background
# jobs) or none (both). Node.js 22 (LTS): on 24, better-sqlite3 12 aborts when a worker
# thread's statements are collected after its environment ends (docs/decisions/libraries.md); 20.19+ runs it too.
#   docker build -t haul .
#   docker run -p 8080:8080 -v haul-data:/data haul            # everything in one process, SQLite
#   docker run ... haul serve   /   docker run ... haul worker  # the scaled shape (compose.yaml)

FROM node:22-bookworm AS build
WORKDIR /app
# Manifests first, so a change of source alone reuses the installed dependencies.
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY packages/client/package.json packages/client/
COPY packages/node-datachannel-stub packages/node-datachannel-stub
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/cli/package.json apps/cli/
COPY apps/extension/package.json apps/extension/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf apps/web/src apps/web/node_modules/.vite apps/extension/src e2e bench

FROM node:22-bookworm-slim AS runtime
# Debian's ffmpeg (HLS with a master playlist works there; the npm build does not), tini to reap the children
# (ffmpeg, 7zz) and pass signals on, CA certificates for HTTPS links and S3.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 haul \
 && useradd --uid 10001 --gid haul --home-dir /app --no-create-home --shell /usr/sbin/nologin haul \
 && mkdir -p /data \
 && chown haul:haul /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# MALLOC_ARENA_MAX: as `npm start` runs the server (SERVER_ENV in scripts/build-server.mjs).
ENV NODE_ENV=production \
    HAUL_DATA_DIR=/data \
    PORT=8080 \
    MALLOC_ARENA_MAX=2
USER haul
VOLUME ["/data"]
EXPOSE 8080
# Liveness only (no database touch); a worker opens no port and counts as healthy while it runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
ENTRYPOINT ["tini", "--", "node", "apps/server/dist/main.js"]
CMD []

# qBittorrent-nox from Debian for HAUL_TORRENT_ENGINE=qbittorrent (compose.yaml builds this target). Same uid as Haul:
# it writes each task's files into the shared volume and Haul hashes and moves them into its store.
FROM debian:bookworm-slim AS qbittorrent
RUN apt-get update \
 && apt-get install -y --no-install-recommends qbittorrent-nox tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 haul \
 && useradd --uid 10001 --gid haul --home-dir /config --create-home --shell /usr/sbin/nologin haul \
 && mkdir -p /data \
 && chown haul:haul /data
COPY --chmod=0755 deploy/qbittorrent-start.sh /usr/local/bin/qbittorrent-start
COPY deploy/qBittorrent.conf /etc/haul/qBittorrent.conf
USER haul
EXPOSE 8080 6881 6881/udp
ENTRYPOINT ["tini", "--", "qbittorrent-start"]
