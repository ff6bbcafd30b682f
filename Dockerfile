# Flowmatic as a container image: one image, two commands.
#   web server:  npm start            (serves the app, the API, /healthz, /readyz, /metrics on PORT)
#   worker:      npm run worker       (runs jobs only; /healthz, /readyz, /metrics on WORKER_PORT)
# Build: docker build -t flowmatic .   (see README, "Running as a fleet"; compose.yaml runs the fleet)

# 1. dependencies, exactly as the lockfile has them (npm ci refuses a lockfile without other
#    platforms' optional binaries; npm install with the committed lockfile installs the locked tree)
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund && npm cache clean --force

# 2. the browser client, built into dist/ with the stamp of its inputs' hash that npm start checks
#    (the same inputs are copied below, so the container's npm start does not build it again)
FROM deps AS build
COPY . .
RUN node --import tsx src/server/client-build.ts

# 3. what runs: the server's TypeScript runs through tsx, as with npm start outside a container
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_FORMAT=json \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json tsconfig.json webpack.config.ts ./
COPY src ./src
COPY plugins ./plugins
COPY schemas ./schemas
# a non-root user owns only what it writes: DATA_DIR (uploads, outbox, the embedded database when
# no DATABASE_URL) and the client stamp folder
RUN mkdir -p /data && chown -R node:node /data /app/dist
USER node
VOLUME ["/data"]
EXPOSE 3000
# SIGTERM (docker stop, Kubernetes): /readyz answers 503, the requests and jobs in flight finish
# within SHUTDOWN_TIMEOUT_MS (default 10 s; give the runtime's stop grace period a few seconds more)
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.WORKER_PORT||process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
