import { writeFileSync } from "node:fs";
import { apiShapesSource, GENERATED } from "./api-shapes";

for (const file of Object.keys(GENERATED)) writeFileSync(new URL(`../${file}`, import.meta.url), apiShapesSource(file));
