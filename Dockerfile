# The headless Toolwright host for a team: the app in a browser, the REST API and MCP at /mcp.
# Build:  docker build -t toolwright .
# Run:    see the README's "Team" section (TLS or a proxy in front, the data folder a volume).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The renderer is built into out/renderer; then only what runs the host is kept.
RUN npm run build:renderer \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf renderer test docs .ci

FROM ${NODE_IMAGE}
# A team host refuses work it cannot record (README, "Audit log"); when-possible only by choice.
ENV NODE_ENV=production \
    TOOLWRIGHT_DATA_DIR=/data \
    TOOLWRIGHT_LISTEN=0.0.0.0:7420 \
    TOOLWRIGHT_TOKEN_FILE=/data/host.token \
    TOOLWRIGHT_AUDIT_RECORDS=required
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/data ./data
COPY --from=build /app/shared ./shared
COPY --from=build /app/electron ./electron
COPY --from=build /app/out/renderer ./out/renderer
# The data folder belongs to the unprivileged user the host runs as; the code stays root's, read-only to it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 7420
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 CMD ["node", "bin/healthcheck.js"]
ENTRYPOINT ["node", "bin/toolwright.js"]
CMD ["serve"]
