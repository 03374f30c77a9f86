import setupArgon2id from "argon2id/lib/setup.js";
// Imported as compiled WebAssembly modules: workerd forbids compiling Wasm from bytes at run time.
import simdModule from "argon2id/dist/simd.wasm";
import noSimdModule from "argon2id/dist/no-simd.wasm";
import { base64url, fromBase64url, timingSafeEqual } from "../shared/crypto";

/** OWASP's argon2id baseline: 19 MiB of memory, 2 passes, 1 lane. */
interface Argon2Params {
  memorySize: number;
  passes: number;
  parallelism: number;
  tagLength: number;
}
export const ARGON2_PARAMS: Argon2Params = { memorySize: 19 * 1024, passes: 2, parallelism: 1, tagLength: 32 };

/** The cost of the test environments' hashes: 256 KiB, one pass. */
export const TEST_ARGON2_PARAMS: Argon2Params = { ...ARGON2_PARAMS, memorySize: 256, passes: 1 };

/**
 * The cost new hashes are made with in an environment: OWASP's baseline, except under APP_ENV=test (the worker and
 * end-to-end tiers), where hundreds of sign-ups would otherwise spend minutes in argon2. APP_ENV=test already
 * means "never production" (it enables the sandbox that mints wallet money). Verification always reads the cost
 * from the stored hash, so hashes of either cost verify anywhere.
 */
export const passwordHashParams = (settings: { APP_ENV: string }): Argon2Params =>
  settings.APP_ENV === "test" ? TEST_ARGON2_PARAMS : ARGON2_PARAMS;

type Argon2id = Awaited<ReturnType<typeof setupArgon2id>>;
let argon2: Promise<Argon2id> | undefined;

function loadArgon2(): Promise<Argon2id> {
  argon2 ??= setupArgon2id(
    async (imports) => ({ instance: await WebAssembly.instantiate(simdModule, imports), module: simdModule }),
    async (imports) => ({ instance: await WebAssembly.instantiate(noSimdModule, imports), module: noSimdModule }),
  );
  return argon2;
}

const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array, params: Argon2Params) {
  const compute = await loadArgon2();
  return compute({ password: encoder.encode(password), salt, ...params });
}

/** Returns a PHC string: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>. */
export async function hashPassword(password: string, params: Argon2Params): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, params);
  const { memorySize: m, passes: t, parallelism: p } = params;
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${base64url(salt)}$${base64url(hash)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, m, t, p, saltText, hashText] = match;
  const salt = fromBase64url(saltText!);
  const expected = fromBase64url(hashText!);
  if (!salt || !expected) return false;
  const actual = await derive(password, salt, {
    memorySize: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

/** A real hash of a random password, so that a sign-in for an unknown account costs as much as a real one. */
const decoys = new Map<Argon2Params, Promise<string>>();
export async function burnPasswordCheck(password: string, params: Argon2Params): Promise<void> {
  let decoy = decoys.get(params);
  if (!decoy) decoys.set(params, (decoy = hashPassword(crypto.randomUUID(), params)));
  await verifyPassword(password, await decoy);
}
