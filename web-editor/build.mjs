// Bundles src/editor.mjs (CodeMirror 6, as installed from package-lock.json) into ONE file,
// OUT/editor.js, headed by the name and version of every package in it, and writes
// OUT/LICENSES.txt with each of those packages' licence. Run by build.sh (after `npm ci`).
import { build } from "esbuild";
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2];
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: ["src/editor.mjs"], bundle: true, minify: true, format: "iife",
  globalName: "CM", target: "es2020", legalComments: "none", write: false, metafile: true,
});
// The packages whose files are in the bundle: node_modules/NAME/... or node_modules/@S/NAME/...
const names = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) names.add(m[1]);
}
const packages = [...names].sort().map((name) => {
  const dir = join("node_modules", name);
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (!file) throw new Error(`${name}: no licence file`);
  return { name, version: meta.version, license: meta.license, text: readFileSync(join(dir, file), "utf8") };
});
const header = "/* uno-rules playground editor: CodeMirror 6, built by web-editor/build.sh from its "
  + "package-lock.json.\n   Licences: LICENSES.txt beside this file.\n"
  + packages.map((p) => `   ${p.name}@${p.version} (${p.license})\n`).join("") + "*/\n";
writeFileSync(join(out, "editor.js"), header + result.outputFiles[0].text);
writeFileSync(join(out, "LICENSES.txt"), packages.map((p) =>
  `${"=".repeat(72)}\n${p.name}@${p.version}: ${p.license}\n${"=".repeat(72)}\n\n${p.text.trim()}\n\n`).join(""));
