import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { apiShapesSource, GENERATED } from "./api-shapes";

for (const file of Object.keys(GENERATED)) {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  writeFileSync(path, await format(apiShapesSource(file), { ...(await resolveConfig(path)), filepath: path }));
}
