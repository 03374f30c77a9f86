#!/usr/bin/env node
// Fixes for three bugs of the worker tier's test pool, @cloudflare/vitest-pool-workers 0.7.8 (the last line
// that runs on vitest 3.0 and wrangler 3; upstream fixed them only in releases for vitest 4 and miniflare 4). Applied
// by package.json "postinstall" and by scripts/test-worker.mjs; running it again changes nothing. It exits with an
// error when the code it replaces is not there (another version): review the patch then, or drop it if the new
// version has the fix. tests/unit/test-pool-patches.test.ts fails when a pinned version changes.
//
// 1. Isolated storage and SQLite's sidecar files (cloudflare/workers-sdk#11031, #5629). With `isolatedStorage` the
//    pool snapshots every storage directory (D1, R2, Durable Objects) before each suite and test (push), restores it
//    afterwards (pop), and asserts that a directory holds nothing but `.sqlite` files. When concurrent requests to an
//    object fail (the ledger tests' concurrent replays), the aborted object's database stays open, its `-wal` and
//    `-shm` stay on disk, and the next push or pop stops the whole run: "Expected .sqlite, got ….sqlite-shm". So a
//    sidecar is treated as part of its database (dist/pool/index.mjs, pushStackedStorage and popStackedStorage):
//    - push copies `-wal` and `-journal` too, before the `.sqlite` itself: if a close checkpoints the log into the
//      database meanwhile, the log copied first still holds every page the database copy might lack, and SQLite
//      replays it when the snapshot is opened. `-shm` is only an index, rebuilt from the log on open: never copied.
//    - pop deletes every sidecar with the `.sqlite` it discards (tolerating one that vanishes meanwhile), so no stale
//      log is ever replayed over the database it restores.
//    Any other unexpected file still fails the run, as upstream intends.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: SQLite sidecars tolerated (scripts/patch-vitest-pool-workers.mjs) */";

const HELPERS = `${MARKER}
var SQLITE_SIDECAR_SUFFIXES = ["-wal", "-shm", "-journal"];
function sqliteSidecarSuffix(name) {
  return SQLITE_SIDECAR_SUFFIXES.find((suffix) => name.endsWith(\`.sqlite\${suffix}\`));
}
async function readStorageNames(keyPath) {
  const names = await fs.readdir(keyPath);
  const ordered = [];
  for (const name of names) {
    if (sqliteSidecarSuffix(name) !== void 0) continue;
    ordered.push(...SQLITE_SIDECAR_SUFFIXES.map((suffix) => name + suffix).filter((sidecar) => names.includes(sidecar)), name);
  }
  return [...ordered, ...names.filter((name) => sqliteSidecarSuffix(name) !== void 0 && !ordered.includes(name))];
}
async function pushStackedStorage(intoDepth, persistPath) {`;

const REPLACEMENTS = [
  {
    what: "helpers before pushStackedStorage",
    from: "async function pushStackedStorage(intoDepth, persistPath) {",
    to: HELPERS,
  },
  {
    what: "pushStackedStorage's file loop",
    from: `    let createdStackFrameKeyPath = false;
    for (const name of await fs.readdir(keyPath)) {
      if (name === BLOBS_DIR_NAME) {
        break;
      }
      if (!createdStackFrameKeyPath) {
        createdStackFrameKeyPath = true;
        await fs.mkdir(stackFrameKeyPath);
      }
      const namePath = path3.join(keyPath, name);
      const stackFrameNamePath = path3.join(stackFrameKeyPath, name);
      assert2(name.endsWith(".sqlite"), \`Expected .sqlite, got \${namePath}\`);
      await fs.copyFile(namePath, stackFrameNamePath);
    }`,
    to: `    let createdStackFrameKeyPath = false;
    for (const name of await readStorageNames(keyPath)) {
      if (name === BLOBS_DIR_NAME) {
        break;
      }
      if (!createdStackFrameKeyPath) {
        createdStackFrameKeyPath = true;
        await fs.mkdir(stackFrameKeyPath);
      }
      const namePath = path3.join(keyPath, name);
      const stackFrameNamePath = path3.join(stackFrameKeyPath, name);
      const sidecar = sqliteSidecarSuffix(name);
      assert2(name.endsWith(".sqlite") || sidecar !== void 0, \`Expected .sqlite, got \${namePath}\`);
      if (sidecar === "-shm") {
        continue;
      }
      try {
        await fs.copyFile(namePath, stackFrameNamePath);
      } catch (e) {
        if (sidecar === void 0 || !isFileNotFoundError(e)) {
          throw e;
        }
      }
    }`,
  },
  {
    what: "popStackedStorage's file loop",
    from: `    const keyPath = path3.join(persistPath, key.name);
    for (const name of await fs.readdir(keyPath)) {
      if (name === BLOBS_DIR_NAME) {
        break;
      }
      const namePath = path3.join(keyPath, name);
      assert2(name.endsWith(".sqlite"), \`Expected .sqlite, got \${namePath}\`);
      await fs.unlink(namePath);
    }`,
    to: `    const keyPath = path3.join(persistPath, key.name);
    for (const name of await readStorageNames(keyPath)) {
      if (name === BLOBS_DIR_NAME) {
        break;
      }
      const namePath = path3.join(keyPath, name);
      const sidecar = sqliteSidecarSuffix(name);
      assert2(name.endsWith(".sqlite") || sidecar !== void 0, \`Expected .sqlite, got \${namePath}\`);
      await fs.rm(namePath, { force: true });
    }`,
  },
];

// 2. The loopback server's keep-alive (cloudflare/workers-sdk#14848, fixed by #14850 in miniflare 4 only). The
//    pool's own miniflare (3.20250310.0) serves workerd's storage pushes and pops over HTTP with Node's default
//    keep-alive timeout of 5 s; workerd pools those connections, and when the machine is busy Node closes an idle
//    socket in the same turn as the next request arrives on it: the pop fails with "Network connection lost" and a
//    test that passed fails (ledger-invariants' 200 concurrent tips, the ledger property test). The server is local
//    and lives as long as the run: keepAliveTimeout 0, as upstream now sets it (stop() still destroys the sockets).
const LOOPBACK_MARKER = "/* fanclub: loopback keep-alive (scripts/patch-vitest-pool-workers.mjs) */";
const LOOPBACK_REPLACEMENTS = [
  {
    what: "the loopback server's creation",
    from: "import_http6.default.createServer(this.#handleLoopback),",
    to: `${LOOPBACK_MARKER} Object.assign(import_http6.default.createServer(this.#handleLoopback), { keepAliveTimeout: 0 }),`,
  },
];

// 3. The entrypoint's prototype wrapped once more on every request (cloudflare/workers-sdk#15092, fixed by #15106
//    for vitest 4 only). SELF constructs the class that stands for the Worker's entrypoint once per request, and its
//    constructor wrapped the class's prototype in one more Proxy each time (dist/worker/lib/cloudflare/test-internal.mjs),
//    so every property lookup walks a chain as long as the requests served so far: quadratic, then a RangeError. A
//    shard of this tier serves thousands of requests in one workerd, and its later tests ran into their time-out. The
//    prototype is now wrapped on the first construction only (later layers only repeated the first).
const PROXY_MARKER = "/* fanclub: entrypoint prototype proxied once (scripts/patch-vitest-pool-workers.mjs) */";
const PROXY_REPLACEMENTS = [
  {
    what: "createProxyPrototypeClass's constructor",
    from: `function createProxyPrototypeClass(superClass, getUnknownPrototypeKey) {
  function Class(...args) {
    Class.prototype = new Proxy(Class.prototype, {`,
    to: `function createProxyPrototypeClass(superClass, getUnknownPrototypeKey) {
  ${PROXY_MARKER}
  let proxied = false;
  function Class(...args) {
    if (!proxied) proxied = true, Class.prototype = new Proxy(Class.prototype, {`,
  },
];

const LABEL = "patch-vitest-pool-workers";
if (
  !patchFile({
    label: LABEL,
    relativePath: "node_modules/@cloudflare/vitest-pool-workers/dist/pool/index.mjs",
    marker: MARKER,
    replacements: REPLACEMENTS,
    version: "@cloudflare/vitest-pool-workers 0.7.8",
  })
) {
  // `npm ci --omit=dev` (a production install) has no test pool to patch.
  console.log(`${LABEL}: @cloudflare/vitest-pool-workers is not installed, nothing to patch`);
  process.exit(0);
}
patchFile({
  label: LABEL,
  relativePath: "node_modules/@cloudflare/vitest-pool-workers/node_modules/miniflare/dist/src/index.js",
  marker: LOOPBACK_MARKER,
  replacements: LOOPBACK_REPLACEMENTS,
  version: "miniflare 3.20250310.0",
});
patchFile({
  label: LABEL,
  relativePath: "node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs",
  marker: PROXY_MARKER,
  replacements: PROXY_REPLACEMENTS,
  version: "@cloudflare/vitest-pool-workers 0.7.8",
});
