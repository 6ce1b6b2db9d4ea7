# bin/admin (migrations, API keys, imports) — used by the compose `migrate` one-shot service.
# Unlike the service images this keeps the whole built workspace: bin/admin resolves tools/admin
# and the apps' migrations by path from the repository root, exactly as on a developer machine.
FROM node:26.10.0-bookworm-slim AS build
ENV CI=true TURBO_TELEMETRY_DISABLED=1 npm_config_store_dir=/pnpm/store
RUN npm install -g pnpm@10.34.9
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm turbo run build --filter=@pawlink/admin...

FROM node:26.10.0-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production MEDIA_DIR=/srv/media
WORKDIR /repo
COPY --from=build --chown=node:node /repo ./
RUN mkdir -p /srv/media/thumbs /srv/media/images && chown -R node:node /srv/media
USER node
# tini as PID 1: Ctrl-C or docker stop reaches the command (a long import stops cleanly).
ENTRYPOINT ["/usr/bin/tini", "--", "bin/admin"]
CMD ["migrate"]
