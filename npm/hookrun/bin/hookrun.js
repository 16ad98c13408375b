#!/usr/bin/env node
// hookrun's npm launcher: runs the hookrun executable that npm installed
// with this package (the optional dependency for this platform) and passes
// its exit code or signal on. The executable knows its own path, so
// `hookrun install HOST` run through here writes that path into the host's
// config: hosts run the native binary directly, never Node.
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const PLATFORMS = {
  "linux-x64": "@hookrun/linux-x64",
  "linux-arm64": "@hookrun/linux-arm64",
  "darwin-x64": "@hookrun/darwin-x64",
  "darwin-arm64": "@hookrun/darwin-arm64",
  "win32-x64": "@hookrun/win32-x64",
};
// The executable's name in its package: Windows runs only a .exe.
const EXE = process.platform === "win32" ? "hookrun.exe" : "hookrun";

const { version } = require("../package.json");
const key = `${process.platform}-${process.arch}`;
const pkg = PLATFORMS[key];

function fail(message) {
  process.stderr.write(`hookrun: ${message}\n`);
  process.exit(1);
}

if (!pkg) {
  fail(
    `there is no hookrun build for ${key} on npm (builds: ${Object.keys(PLATFORMS).join(", ")}). ` +
      "Build it from source with Rust: cargo install hookrun --locked",
  );
}

let exe;
try {
  exe = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", EXE);
} catch {
  fail(
    `the package ${pkg}, which holds the hookrun executable for ${key}, is not installed. ` +
      "npm installs it with hookrun unless optional dependencies are left out (--omit=optional, --no-optional, " +
      "or a lockfile written on another platform). Install it next to hookrun: " +
      `npm i ${pkg}@${version} (in a project), or npm i -g hookrun@${version} ${pkg}@${version} (global)`,
  );
}

const run = spawnSync(exe, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  fail(`cannot run ${exe}: ${run.error.message}`);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 1);
