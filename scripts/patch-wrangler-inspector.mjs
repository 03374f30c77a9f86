#!/usr/bin/env node
// One reviewed patch to wrangler 3.114.17's inspector proxy (the Worker `wrangler dev` runs in its proxy process to
// connect DevTools to the runtime), applied on every `npm install` / `npm ci` (package.json "postinstall") and again
// before each build; running it again changes nothing. It changes nothing that is deployed.
//
// Why: the proxy listens to the runtime's inspector with the Network domain on, so every subrequest of the Worker
// (each D1 batch and each Durable Object call is one) sends it three events, and for EACH event of the runtime it
// POSTed a debug log ("RUNTIME INCOMING MESSAGE", printed only under WRANGLER_LOG=debug) to wrangler's Node process
// over a loopback connection of its own; with DevTools attached, each message passed on was logged the same way
// again. On two cores that work competed with the Worker for the CPU: sendTip called 16 at once inside the Worker
// ran at about 260 tips/s with those logs and about 500 without (tests/bench/money.mjs), and a money benchmark once
// ran out of file descriptors on those connections (kj "Too many open files", thousands of sockets in CLOSE-WAIT).
// Without DevTools attached, the proxy also kept every event it could not pass on, the Network events of every
// subrequest since the server started, to replay to a DevTools that might connect later.
//
// Now: no debug log per message (the proxy's other debug logs, connections opened and closed, stay), and Network
// events are not kept while no DevTools is attached (DevTools' Network panel shows requests from when it opens
// anyway); everything else is kept and passed on as before.
import { patchFile } from "./lib/patch-file.mjs";

const MARKER = "/* fanclub: no debug log per inspector message (scripts/patch-wrangler-inspector.mjs) */";
const REPLACEMENTS = [
  {
    what: "the debug log of every runtime message",
    from: `    const msg = JSON.parse(event.data);
    this.sendDebugLog("RUNTIME INCOMING MESSAGE", msg);
`,
    to: `    const msg = JSON.parse(event.data);
    ${MARKER}
`,
  },
  {
    what: "the buffer of runtime messages",
    from: `    this.runtimeMessageBuffer.push(msg);
    this.tryDrainRuntimeMessageBuffer();`,
    to: `    if (this.websockets.devtools !== void 0 || !String(msg.method).startsWith("Network.")) this.runtimeMessageBuffer.push(msg);
    this.tryDrainRuntimeMessageBuffer();`,
  },
  {
    what: "the debug log of every message sent to DevTools",
    from: `    this.sendDebugLog("SEND TO DEVTOOLS", message);
`,
    to: "",
  },
];

const LABEL = "patch-wrangler-inspector";
const FILE = "node_modules/wrangler/wrangler-dist/InspectorProxyWorker.js";
if (!patchFile({ label: LABEL, relativePath: FILE, marker: MARKER, replacements: REPLACEMENTS, version: "wrangler 3.114.17" })) {
  console.error(`${LABEL}: ${FILE} is missing; run npm install first`);
  process.exit(1);
}
