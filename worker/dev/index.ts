import { createWorker } from "../create-worker";
import { LOCAL_RUN } from "./local-run";

export * from "../durable-objects";

/** The Worker of a local run: production's plus the development mailbox and its helpers (local-run.ts). */
export default createWorker(LOCAL_RUN);
