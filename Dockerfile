# syntax=docker/dockerfile:1
# Production image: compiled service on Node 20, no dev dependencies, runs as the unprivileged
# `node` user. It needs a MongoDB (MONGODB_URI) and API_KEYS; see README "Configuration".

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY console ./console
COPY scripts/build-console.mjs ./scripts/
RUN npx nest build && node scripts/build-console.mjs && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/console/dist ./console/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# `node` as PID 1 receives SIGTERM directly: Nest's shutdown hooks drain requests and flush buffers.
# The flags are scripts/service-node-flags.mjs's (a larger young generation, P348).
CMD ["node", "--max-semi-space-size=64", "dist/main.js"]
