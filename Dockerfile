# One image for the migration job, the API and the worker (docker-compose.yml picks the command).
# Three stages: `build` compiles with every dev tool; `deps` installs production dependencies
# only; the final stage copies just those and the compiled output, so no compiler, test runner,
# benchmark, embedded Postgres or MailDev ships.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
# No build arguments: one image serves any site. Analytics ids and members-area links are read by
# the API when it starts (GA4_MEASUREMENT_ID, META_PIXEL_ID, …) and written into the pages then.
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY frontend/package.json frontend/
# --workspaces=false: the SPA's packages are bundled into frontend/dist; none runs on the server.
# No install scripts: the production packages with native code (argon2, msgpackr) ship prebuilt.
# TypeScript comes along as an optional peer of valibot (under @bull-board/api), which npm keeps
# with --omit=dev; nothing loads it at run time.
RUN npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist/backend dist/backend
COPY --from=build /app/dist/worker dist/worker
COPY --from=build /app/dist/scripts dist/scripts
COPY --from=build /app/frontend/dist frontend/dist
# The seller's site folder: the API and the worker read it at boot (the SPA has it built in).
COPY --from=build /app/site site
# Read-only for the processes: the code and its dependencies belong to root, they run as `node`.
USER node
EXPOSE 3000
CMD ["node", "dist/backend/src/main.js"]
