# mcpfixture: the deterministic, fault-injecting MCP test server (mcpgauge).
#   docker build -t mcpfixture:local .        (or: make fixture-image)
#   docker run --rm -i mcpfixture:local                                   # stdio
#   docker run --rm -p 8080:8080 -e MCP_TRANSPORT=streamable-http mcpfixture:local
# Configuration comes from env (MCP_TRANSPORT, PORT, STATELESS, BACKEND_MODE, BARRIER_N,
# HANG_AFTER_N, CRASH_AFTER_N, BARRIER_TIMEOUT_SECONDS, FAULT_METHODS), which wins over the
# flags in CMD. There is deliberately no ENTRYPOINT: a proxy that runs
# `docker run IMAGE <its own command>` replaces CMD instead of having it double-prefixed.
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
    MCPFIXTURE_HOST=0.0.0.0
# runtime dependencies only; the compiled code (dist/, `make build`, which `make fixture-image` runs first) comes with COPY . .
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error && npm cache clean --force
# the sources the CLI loads (bin/mcpfixture.mjs -> pipeline/cli.ts -> pipeline/**, arms/**);
# .dockerignore keeps node_modules, .git, tests and scratch out of the context
COPY . .
RUN ln -s /app/bin/mcpfixture.mjs /usr/local/bin/mcpfixture \
 && ln -s /app/bin/mcpgauge.mjs /usr/local/bin/mcpgauge \
 && chmod +x /app/bin/*.mjs
USER node
EXPOSE 8080
CMD ["mcpfixture","--transport","stdio"]
