import { writeFileSync } from "node:fs";
import { apiShapesSource } from "./api-shapes";

writeFileSync(new URL("../app/lib/api-shapes.ts", import.meta.url), apiShapesSource());
