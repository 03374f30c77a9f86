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

/**
 * The cost new hashes are made with. Only the worker tier's entry (tests/worker/entry.ts) lowers it, so that the
 * hundreds of accounts its tests sign up cost 1 ms each instead of a quarter of a second; the production entry
 * never calls the setter. Verification always reads the cost from the stored hash.
 */
let hashParams = ARGON2_PARAMS;
export function setPasswordHashCostForTests(params: Pick<Argon2Params, "memorySize" | "passes">): void {
  hashParams = { ...ARGON2_PARAMS, ...params };
}

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
export async function hashPassword(password: string, params: Argon2Params = hashParams): Promise<string> {
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
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(password, await decoy);
}
