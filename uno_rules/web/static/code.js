/* uno-rules playground: the code editor in place of the textarea: CodeMirror 6 (vendor/
   editor.js, the global CM, built by web-editor/build.sh) with YAML highlighting, folding,
   search (Ctrl+F), undo history (Ctrl+Z), the schema's keys as completions (complete.js's
   keysAt) and the located problems as lint marks. Without the bundle the textarea stays, with
   its own gutter and list: the page works either way. Tab indents; Escape then Tab leaves
   (WCAG 2.1.2). Loaded after app.js and complete.js; app.js calls mountCode(). */
"use strict";

/** The code editor behind the few textarea properties app.js uses (value, focus, ...). */
class CodeEditor {
  constructor(textarea, onChange) {
    const cm = window.CM;
    this.quiet = false;
    const wrap = textarea.closest(".editor-wrap");
    this.view = new cm.EditorView({
      parent: wrap,
      doc: textarea.value,
      extensions: [
        cm.keymap.of([{ key: "Tab", run: cm.acceptCompletion }, cm.indentWithTab,
                      { key: "Enter", run: (view) => cm.acceptCompletion(view) || newLine(view) }]),
        cm.basicSetup, cm.yaml(), cm.indentUnit.of("  "), cm.lintGutter(),
        cm.autocompletion({ override: [schemaKeys] }),
        // tabindex: axe counts a contenteditable without one as no focusable content.
        cm.EditorView.contentAttributes.of({ id: "code", "aria-label": "rulebook YAML", tabindex: "0" }),
        cm.EditorView.updateListener.of((u) => { if (u.docChanged && !this.quiet) onChange(); }),
        // Escape lets the next Tab leave for 2 s: coming back within them, Tab indents again.
        cm.EditorView.domEventHandlers({ focus: (e, view) => {
          if (view.inputState.tabFocusMode > 0) view.setTabFocusMode(false);
        } }),
      ],
    });
    wrap.classList.add("code");
  }

  get value() { return this.view.state.doc.toString(); }

  /** The whole text replaced (one step of the undo history), without app.js's onEdit: its
      callers call that themselves. */
  set value(text) {
    this.quiet = true;
    try {
      this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
    } finally {
      this.quiet = false;
    }
  }

  get selectionStart() { return this.view.state.selection.main.from; }

  set scrollTop(px) { this.view.scrollDOM.scrollTop = px; }

  focus() { this.view.focus(); }

  /** The cursor at LINE:COL (1-based), scrolled into view. */
  goTo(line, column) {
    const doc = this.view.state.doc;
    const at = doc.line(Math.max(1, Math.min(line, doc.lines)));
    const pos = at.from + Math.max(0, Math.min((column || 1) - 1, at.length));
    this.view.dispatch({ selection: { anchor: pos },
                         effects: window.CM.EditorView.scrollIntoView(pos, { y: "center" }) });
    this.view.focus();
  }

  /** The validator's problems in the editor's text as lint marks: from the problem's column
      to the end of the word there (the whole line's rest when no word starts there). */
  mark(problems) {
    const doc = this.view.state.doc;
    const marks = problems.filter((p) => p.file === "editor" && p.line > 0 && p.line <= doc.lines)
      .map((p) => {
        const line = doc.line(p.line);
        const from = line.from + Math.max(0, Math.min((p.column || 1) - 1, line.length));
        const word = /^[\w.-]+/.exec(doc.sliceString(from, line.to));
        return { from, to: word ? from + word[0].length : line.to, severity: "error", message: p.message };
      });
    this.view.dispatch(window.CM.setDiagnostics(this.view.state, marks));
  }
}

/** Enter: a new line with the line's indentation, one step more after `key:` (YAML's
    nesting, as the textarea does; the YAML mode itself would start the line at column 0). */
function newLine(view) {
  const range = view.state.selection.main;
  const line = view.state.doc.lineAt(range.from);
  const before = line.text.slice(0, range.from - line.from);
  const indent = /^\s*/.exec(before)[0] + (/:\s*$/.test(before) ? "  " : "");
  view.dispatch(view.state.update({
    changes: { from: range.from, to: range.to, insert: `\n${indent}` },
    selection: { anchor: range.from + 1 + indent.length }, scrollIntoView: true, userEvent: "input",
  }));
  return true;
}

/** The completion source: the schema's keys where a key is being typed (complete.js). */
function schemaKeys(context) {
  const found = keysAt(context.state.doc.toString(), context.pos);
  if (!found) return null;
  return {
    from: found.from,
    options: found.items.map((item) => ({ label: item.key, apply: `${item.key}: `,
                                          detail: item.help, type: "property" })),
    validFor: /^[\w-]*$/,
  };
}

/** The code editor in the textarea's place, or null when the bundle did not load. */
function mountCode(textarea, onChange) {
  if (!window.CM) return null;
  try {
    return new CodeEditor(textarea, onChange);
  } catch (e) {  // a broken bundle: the textarea still works
    console.error(e);
    return null;
  }
}
