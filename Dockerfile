# mcpfixture: the deterministic, fault-injecting MCP test server (mcpgauge), plus the reference
# discovery proxy (for docker-compose.yml). Registry path of `make fixture-image`
# (scripts/fixture-image.mjs); without a registry that script builds docker/Dockerfile.local
# instead: same layout, user and CMD (docs/docker.md).
#   docker build -t mcpfixture:local .        (or: make fixture-image)
#   docker run --rm -i mcpfixture:local                                   # stdio
#   docker run --rm -p 127.0.0.1:8080:8080 -e MCP_TRANSPORT=streamable-http mcpfixture:local
# Configuration comes from env (MCP_TRANSPORT, PORT, STATELESS, BACKEND_MODE, BARRIER_N,
# HANG_AFTER_N, CRASH_AFTER_N, BARRIER_TIMEOUT_SECONDS, FAULT_METHODS), which wins over the
# flags in CMD. There is deliberately no ENTRYPOINT: a proxy that runs
# `docker run IMAGE /mcpfixture --transport stdio` replaces CMD instead of having it double-prefixed.
# Layout: /mcpfixture and /mcpgauge-proxy (launchers, also on PATH without the slash),
# /app/.image/{fixture,proxy,memory}.mjs (single-file bundles, docker/bundle.mjs: no tsx
# compile at start, no node_modules in the image), /app/package.json, /app/datasets/.
FROM node:20-slim AS build
WORKDIR /app
# runtime dependencies only: the bundler (esbuild, via tsx) and what the bundles contain
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error
# .dockerignore keeps node_modules, .git, tests and scratch out of the context
COPY . .
RUN node docker/bundle.mjs /app/.image

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
    MCPFIXTURE_HOST=0.0.0.0
COPY --from=build /app/package.json /app/package.json
COPY --from=build /app/datasets /app/datasets
COPY --from=build /app/.image /app/.image
COPY docker/mcpfixture docker/mcpgauge-proxy /
RUN chmod 755 /mcpfixture /mcpgauge-proxy \
 && ln -s /mcpfixture /usr/local/bin/mcpfixture \
 && ln -s /mcpgauge-proxy /usr/local/bin/mcpgauge-proxy
USER node
EXPOSE 8080
CMD ["/mcpfixture","--transport","stdio"]
