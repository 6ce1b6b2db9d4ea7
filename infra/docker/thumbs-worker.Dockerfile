# @pawlink/thumbs-worker — build context is the repository root (see docker-compose.yml).
FROM node:26.10.0-bookworm-slim AS build
ENV CI=true TURBO_TELEMETRY_DISABLED=1 npm_config_store_dir=/pnpm/store
RUN npm install -g pnpm@10.34.9
WORKDIR /repo
# Lockfile first: the dependency layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@pawlink/thumbs-worker...
# pnpm 10 deploys without inject-workspace-packages only in legacy mode.
RUN pnpm --filter=@pawlink/thumbs-worker deploy --prod --legacy /out

FROM node:26.10.0-bookworm-slim AS runtime
# A container is reached from outside it: listen on every interface (HOST defaults to 127.0.0.1).
ENV NODE_ENV=production MEDIA_DIR=/srv/media HOST=0.0.0.0
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build --chown=node:node /out ./
# Created in the image so a fresh named volume mounted here inherits node's ownership.
RUN mkdir -p /srv/media/thumbs /srv/media/images && chown -R node:node /srv/media
USER node
# tini as PID 1 (exec form): docker stop's SIGTERM, and any second one, reaches node, whose
# handlers make it one graceful stop; and what a process leaves behind is reaped.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
