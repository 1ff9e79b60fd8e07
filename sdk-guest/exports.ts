// Entry for `export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports"`.
export { describe, hook, tool } from "./assembly/exports";
