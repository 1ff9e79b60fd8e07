// Entry for `import ... from "@wasmhooks/sdk-guest"` (asc resolves a package to its index.ts).
export * from "./assembly/index";
