// The client: starts `rulelang lsp` (the command in the setting rulelang.command) over stdio
// for *.rule and *.test files. Everything else (diagnostics, hover, completion, definition,
// references, rename, formatting, outline) comes from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulelang").get("command");
  const server = { command, args };
  client = new LanguageClient("rulelang", "rulelang", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "rulelang" },
      { scheme: "file", language: "rulelang-test" },
      { scheme: "file", pattern: "**/*.{yaml,yml}" },  // data files: their mistakes shown
    ],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
