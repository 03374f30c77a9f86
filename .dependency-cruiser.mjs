/**
 * `npm run lint`: no import cycles among the app's, the Worker's and shared/'s modules. Imports of types only are
 * left out: they are gone once compiled, so they decide nothing about the order modules run in.
 */
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A module that imports itself through others: the order in which they run decides what each sees.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|node_modules)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
    },
  },
};
