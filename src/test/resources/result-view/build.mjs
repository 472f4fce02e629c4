import { build } from "esbuild";
await build({ entryPoints: ["host.js"], bundle: true, format: "iife", outfile: "host.bundle.js", platform: "browser",
  logLevel: "error" });
