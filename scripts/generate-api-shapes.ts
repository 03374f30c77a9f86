import { writeFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { apiShapesSource, GENERATED } from "./api-shapes";

for (const file of Object.keys(GENERATED)) {
  const url = new URL(`../${file}`, import.meta.url);
  const options = await resolveConfig(url);
  writeFileSync(url, await format(apiShapesSource(file), { ...options, filepath: url.pathname }));
}
