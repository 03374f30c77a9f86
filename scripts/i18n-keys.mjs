#!/usr/bin/env node
// Finds every translation key in app/, worker/ and shared/ (`t("…")` and `message("…")`) and compares them with
// app/locales/en.json. `--write` adds the missing keys to en.json (English text = key) and drops unused ones;
// without it, the script prints differences and exits 1 when there are any.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOTS = ["app", "worker", "shared"];
const CALL = /\b(?:t|message)\(\s*"((?:[^"\\]|\\.)*)"/g;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}

export function usedKeys() {
  const keys = new Set();
  for (const root of ROOTS) {
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, "utf8").matchAll(CALL)) keys.add(JSON.parse(`"${match[1]}"`));
    }
  }
  return keys;
}

const enPath = "app/locales/en.json";
const used = usedKeys();
let en = {};
try {
  en = JSON.parse(readFileSync(enPath, "utf8"));
} catch {
  // First run: no file yet.
}
const missing = [...used].filter((key) => !(key in en)).sort();
const unused = Object.keys(en)
  .filter((key) => !used.has(key))
  .sort();

if (process.argv.includes("--write")) {
  const next = Object.fromEntries(
    [...used].sort((a, b) => a.localeCompare(b, "en")).map((key) => [key, en[key] ?? key]),
  );
  writeFileSync(enPath, JSON.stringify(next, null, 2) + "\n");
  console.log(`en.json: ${Object.keys(next).length} keys (${missing.length} added, ${unused.length} removed)`);
} else {
  for (const key of missing) console.log(`missing in en.json: ${key}`);
  for (const key of unused) console.log(`unused in en.json: ${key}`);
  if (missing.length || unused.length) process.exit(1);
  console.log(`en.json: all ${used.size} keys present`);
}
