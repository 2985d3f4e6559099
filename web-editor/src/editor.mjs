// The bundle's entry: the CodeMirror 6 parts the playground uses, as one global (window.CM)
// that uno_rules/web/static/code.js puts together. Nothing of the playground's own here.
export { EditorView, keymap, lineNumbers } from "@codemirror/view";
export { EditorState, Compartment } from "@codemirror/state";
export { basicSetup } from "codemirror";
export { indentWithTab, undo, redo } from "@codemirror/commands";
export { indentUnit } from "@codemirror/language";
export { yaml } from "@codemirror/lang-yaml";
export { acceptCompletion, autocompletion, completionStatus } from "@codemirror/autocomplete";
export { lintGutter, setDiagnostics } from "@codemirror/lint";
export { openSearchPanel } from "@codemirror/search";
