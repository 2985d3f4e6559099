/* uno-rules playground: the editor's text leaves the browser and comes back. Save downloads
   it as NAME.yaml; Open reads a local file into the editor; Share link puts the text in a
   link, compressed (deflate) and base64url-coded in the URL's fragment (#edit=...): the
   fragment never goes to a server, and opening the link fills the editor with the text.
   Loaded after app.js (editor, replaceText, toast). */
"use strict";

const SHARE = "edit=";  // the fragment's prefix

/** TEXT compressed and coded for a URL (base64url without padding). */
async function packText(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text packText coded; throws on a damaged code. */
async function unpackText(code) {
  const b64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "===".slice((b64.length + 3) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

/** The text a share link carries (#edit=...), else null; a damaged link says so. */
async function sharedText() {
  if (!location.hash.startsWith(`#${SHARE}`)) return null;
  // The fragment goes: a reload must not overwrite what is typed after the link was opened.
  const code = location.hash.slice(1 + SHARE.length);
  history.replaceState(null, "", "#edit");
  try {
    return await unpackText(code);
  } catch (e) {
    toast("this share link is damaged: the editor keeps its text");
    return null;
  }
}

function saveText() {
  const found = /^name:\s*["']?([\w.-]+)/m.exec(editor.value);
  const url = URL.createObjectURL(new Blob([editor.value], { type: "text/yaml" }));
  const link = el("a", { href: url, download: `${found ? found[1] : "rulebook"}.yaml`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);  // the download has long started by then
}

async function openText(input) {
  const file = input.files[0];
  if (!file) return;
  input.value = "";  // the same file can be opened again
  try {
    replaceText(await file.text());
  } catch (e) {
    toast(`${file.name}: ${e.message}`);
  }
}

async function shareText() {
  const link = `${location.origin}${location.pathname}#${SHARE}${await packText(editor.value)}`;
  const box = $("#share-link");
  box.value = link;
  $("#share-row").hidden = false;
  box.focus();
  box.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch (e) { /* no clipboard here (permission, an insecure origin): the link is shown */ }
  $("#share-note").textContent = `${copied ? "Copied: " : ""}${link.length.toLocaleString()} characters, the whole rulebook`;
}

function initEditFile() {
  $("#edit-save").addEventListener("click", saveText);
  $("#edit-open").addEventListener("change", (e) => openText(e.target));
  $("#edit-share").addEventListener("click", shareText);
}
