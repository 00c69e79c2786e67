# The portal as an image: the web app and the server built once here, then run with the production
# dependencies only, as an unprivileged user, its embedded database (when DATABASE_URL is unset) in
# the volume /data. Build: docker build -t attendance-portal .   See README, "Running in production".

ARG NODE_IMAGE=node:20-bookworm-slim

# Build: every dependency, then the web app (dist/web) and the server (dist/server/<digest>).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The production dependencies alone, installed from the same lock file.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Run: the builds with the sources they were made from, so that a start finds both up to date and
# builds nothing (the server's build and the web app's stamp are digests of those sources). The
# sources stay for the `portal` command, which runs them with tsx (a production dependency).
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    PORTAL_DATA_DIR=/data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/vite.config.ts /app/postcss.config.cjs ./
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/src ./src
COPY --from=build /app/dist ./dist
# The files above belong to root and are read-only to the portal; only the data folder is its own.
# The backups' folder is made here too, so that a volume mounted on it belongs to the portal.
RUN mkdir -p /data/backups && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready: the database answers, the migrations are applied and the process is not shutting down.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/api/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm start without npm: node receives SIGTERM itself and shuts down in order.
CMD ["node", "--v8-pool-size=0", "scripts/start.mjs"]
