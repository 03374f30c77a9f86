#!/usr/bin/env node
// Three reviewed patches to the worker tier's test pool, applied on every `npm install` / `npm ci` (package.json
// "postinstall"); running it again changes nothing. First, @cloudflare/vitest-pool-workers 0.7.8's isolated
// storage tolerates SQLite's sidecar files; second, its miniflare's loopback server keeps idle connections open
// (see LOOPBACK_REPLACEMENTS below); third, SELF.fetch no longer slows down with every request (PROXY_REPLACEMENTS).
//
// Why: with `isolatedStorage: true` the pool snapshots every storage directory (D1, R2, Durable Objects) before each
// suite and test (push) and restores it afterwards (pop), and asserts that a directory holds nothing but `.sqlite`
// databases. It aborts every Durable Object first, expecting that to close their SQLite databases, which deletes the
// write-ahead log (`.sqlite-wal`) and its index (`.sqlite-shm`). It does not always: when concurrent requests to an
// object fail (here the ledger tests' concurrent replays; cloudflare/workers-sdk#11031, #5629), the aborted D1
// object's database stays open for the rest of the run, its sidecars stay on disk, and the next push or pop stops
// the whole run: "Isolated storage failed … Expected .sqlite, got ….sqlite-shm". Running fresh workerd processes
// (the former three shards) only made it rarer. Waiting for the sidecars does not help either: they can stay for
// good. Dropping isolated storage would make every test clean up after itself, a far larger change.
//
// So a sidecar is treated as part of its database (dist/pool/index.mjs, pushStackedStorage and popStackedStorage):
// - push copies `-wal` and `-journal` too, before the `.sqlite` itself: if a close checkpoints the log into the
//   database meanwhile, the log copied first still holds every page the database copy might lack, and SQLite
//   replays it when the snapshot is opened. (The upstream loop's order is otherwise kept, sidecars just ahead of
//   their database.) `-shm` is only an index, rebuilt from the log on open: never copied.
// - pop deletes every sidecar with the `.sqlite` it discards (tolerating one that vanishes meanwhile), so no stale
//   log is ever replayed over the database it restores.
// Any other unexpected file still fails the run, as upstream intends. If the code this script expects is not found
// (another version of the package), it exits with an error instead of guessing.
// (scripts/lib/patch-file.mjs applies them.)
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

// Second, the pool's own miniflare (3.20250310.0): its loopback server, which workerd calls for every storage push
// and pop, keeps Node's default keep-alive timeout of 5 s. A test that runs longer than that between two storage
// calls leaves workerd's pooled connection idle; when the machine is busy, Node's timer closes that socket in the
// same event-loop turn as the next request arrives on it, and the pop fails with "Network connection lost"
// ("stream disconnected prematurely"), failing a test that passed (ledger-invariants' 200 concurrent tips, the
// ledger property test). The loopback server is local and lives as long as the run: its idle connections stay
// open (keepAliveTimeout 0 disables the timer; the server's stop() still destroys them).
const LOOPBACK_MARKER = "/* fanclub: loopback keep-alive (scripts/patch-vitest-pool-workers.mjs) */";
const LOOPBACK_REPLACEMENTS = [
  {
    what: "the loopback server's creation",
    from: "import_http6.default.createServer(this.#handleLoopback),",
    to: `${LOOPBACK_MARKER} Object.assign(import_http6.default.createServer(this.#handleLoopback), { keepAliveTimeout: 0 }),`,
  },
];

// Third: SELF.fetch grew slower with every request the workerd of a shard had served (cloudflare/workers-sdk#15446):
// about 4 ms a request at first, 75 ms after 400, 300 ms after 800 in this tier, so a long test file (stories: about
// 80 s) spent most of its time there. The cause is in dist/worker/lib/cloudflare/test-internal.mjs: the class that
// stands for the Worker's entrypoint wrapped its own prototype in one more Proxy on every construction, and SELF
// constructs one per request, so every property lookup walked a chain as long as the requests served so far. The
// prototype is now wrapped once, on the first construction (the layers added later only repeated the first: each
// one returns what the prototype has, else asks the same getter).
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
if (!patchFile({ label: LABEL, relativePath: "node_modules/@cloudflare/vitest-pool-workers/dist/pool/index.mjs", marker: MARKER, replacements: REPLACEMENTS, version: "@cloudflare/vitest-pool-workers 0.7.8" })) {
  // `npm ci --omit=dev` (a production install) has no test pool to patch.
  console.log(`${LABEL}: @cloudflare/vitest-pool-workers is not installed, nothing to patch`);
  process.exit(0);
}
patchFile({ label: LABEL, relativePath: "node_modules/@cloudflare/vitest-pool-workers/node_modules/miniflare/dist/src/index.js", marker: LOOPBACK_MARKER, replacements: LOOPBACK_REPLACEMENTS, version: "miniflare 3.20250310.0" });
patchFile({ label: LABEL, relativePath: "node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs", marker: PROXY_MARKER, replacements: PROXY_REPLACEMENTS, version: "@cloudflare/vitest-pool-workers 0.7.8" });
