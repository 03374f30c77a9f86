// Applies reviewed text replacements to an installed package's file, once (scripts/patch-*.mjs, run on install).
// node_modules may be hard-linked between checkouts, so the file is replaced (temp file + rename), never edited in
// place: other checkouts keep their own copy.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Applies `replacements` ({ what, from, to }, each `from` expected exactly once) to `relativePath` (from the
 * repository root); a file already carrying `marker` is left alone. `label` prefixes the messages; `version` names
 * what the patch was written for. Exits with an error when the expected code is not there (another version: review
 * the patch rather than guess). Returns false when the package is not installed.
 */
export function patchFile({ label, relativePath, marker, replacements, version }) {
  // Resolved from this repository's own node_modules (a package's "exports" can hide its files from require).
  const file = fileURLToPath(new URL(`../../${relativePath}`, import.meta.url));
  if (!existsSync(file)) return false;
  const source = readFileSync(file, "utf8");
  if (source.includes(marker)) {
    console.log(`${label}: ${path.relative(process.cwd(), file)} is already patched`);
    return true;
  }
  let patched = source;
  for (const { what, from, to } of replacements) {
    const count = patched.split(from).length - 1;
    if (count !== 1) {
      console.error(
        `${label}: expected ${what} exactly once in ${file}, found it ${count} times.\n` +
          `The package is not the version this patch was written for (${version}): review the patch against the new code ` +
          "(or drop it if upstream has made it unnecessary).",
      );
      process.exit(1);
    }
    patched = patched.replace(from, () => to);
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, patched);
  renameSync(temporary, file);
  console.log(`${label}: patched ${path.relative(process.cwd(), file)}`);
  return true;
}
